//! The net's evaluations batched across a search's threads (`nn:batch=N`).
//!
//! A thread that needs the net puts its position in a queue. When the queue
//! holds `batch` positions, or the thread has waited [`BATCH_WAIT`] for
//! others, one thread evaluates the whole queue in one pass
//! ([`Network::forward_batch`]) and hands each thread its answer. With
//! `batch` 1 a thread asks the net alone and never waits.
//!
//! On a CPU this buys nothing (a position costs the same in a batch, and a
//! thread that waits does no work meanwhile): it is for backends where one
//! pass over many positions costs about as much as one.

use std::collections::HashMap;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use virus_wars_net::{Input, Network, Output};

/// How long a thread with a position waits for other threads' before its
/// batch is evaluated as it is.
pub const BATCH_WAIT: Duration = Duration::from_micros(500);

/// Most positions a batch may gather (a spec's `batch=` is checked against it).
pub const MAX_BATCH: usize = 256;

/// Asks the net for a search's threads, alone or in batches.
pub(super) struct Evaluator<'a> {
    net: &'a Network,
    batch: usize,
    state: Mutex<Queue>,
    answered: Condvar,
}

#[derive(Default)]
struct Queue {
    next_ticket: u64,
    /// Positions waiting for a pass, by ticket.
    waiting: Vec<(u64, Input)>,
    /// Answers not yet taken; `None`: the pass that held it failed, and the
    /// asker evaluates its position alone.
    answers: HashMap<u64, Option<Output>>,
}

impl<'a> Evaluator<'a> {
    /// Batches of up to `batch` positions (1 or less: no batching).
    pub fn new(net: &'a Network, batch: usize) -> Evaluator<'a> {
        Evaluator {
            net,
            batch: batch.clamp(1, MAX_BATCH),
            state: Mutex::new(Queue::default()),
            answered: Condvar::new(),
        }
    }

    fn queue(&self) -> MutexGuard<'_, Queue> {
        // Nothing runs the net while holding the lock, so a poisoned lock
        // still holds a consistent queue.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The net's answer for `input`, alone or as part of a batch.
    pub fn evaluate(&self, input: Input) -> Output {
        if self.batch <= 1 {
            return self.net.forward(&input);
        }
        let own = input.clone();
        let mut q = self.queue();
        let ticket = q.next_ticket;
        q.next_ticket += 1;
        q.waiting.push((ticket, input));
        let deadline = Instant::now() + BATCH_WAIT;
        loop {
            if let Some(answer) = q.answers.remove(&ticket) {
                drop(q);
                return answer.unwrap_or_else(|| self.net.forward(&own));
            }
            let mine_waits = q.waiting.iter().any(|(t, _)| *t == ticket);
            let now = Instant::now();
            if q.waiting.len() >= self.batch || (mine_waits && now >= deadline) {
                let batch = std::mem::take(&mut q.waiting);
                drop(q);
                self.run(batch);
                q = self.queue();
                continue;
            }
            q = if mine_waits {
                match self.answered.wait_timeout(q, deadline - now) {
                    Ok((g, _)) => g,
                    Err(e) => e.into_inner().0,
                }
            } else {
                // Another thread is evaluating it; it wakes us when done.
                self.answered.wait(q).unwrap_or_else(|e| e.into_inner())
            };
        }
    }

    /// One pass over `batch`, its answers left for their askers.
    fn run(&self, batch: Vec<(u64, Input)>) {
        let (tickets, inputs): (Vec<u64>, Vec<Input>) = batch.into_iter().unzip();
        let outputs = catch_unwind(AssertUnwindSafe(|| self.net.forward_batch(&inputs)));
        let mut q = self.queue();
        match outputs {
            Ok(outputs) if outputs.len() == tickets.len() => {
                for (t, o) in tickets.into_iter().zip(outputs) {
                    q.answers.insert(t, Some(o));
                }
            }
            failed => {
                // The askers evaluate alone; a panic goes on after they are told.
                for t in tickets {
                    q.answers.insert(t, None);
                }
                drop(q);
                self.answered.notify_all();
                if let Err(panic) = failed {
                    resume_unwind(panic);
                }
                return;
            }
        }
        drop(q);
        self.answered.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_net::planes::encode_position;
    use virus_wars_net::Config;
    use virus_wars_rules::{with_position, Preset, Symmetry};

    const SMALL: Config = Config {
        channels: 8,
        blocks: 2,
        value_channels: 4,
        value_hidden: 8,
    };

    /// Positions along one classic game, each seen through a symmetry.
    fn inputs(n: usize) -> Vec<Input> {
        let mut p = Preset::Classic.variant().start().expect("classic starts");
        let mut out = Vec::new();
        while out.len() < n && p.outcome().is_none() {
            let sym = Symmetry::ALL[out.len() % Symmetry::ALL.len()];
            out.push(with_position!(&p, q => encode_position(q, sym)));
            let steps = p.legal_steps();
            p.play(steps[(out.len() * 7) % steps.len()])
                .expect("a legal step");
        }
        out
    }

    #[test]
    fn batched_answers_are_the_nets_answers_one_by_one() {
        let net = Network::random(SMALL, 5);
        let positions = inputs(24);
        assert_eq!(positions.len(), 24);
        for (threads, batch) in [(1, 4), (4, 4), (4, 2), (3, 8), (2, 1)] {
            let evaluator = Evaluator::new(&net, batch);
            let answers: Vec<(usize, Output)> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let (evaluator, positions) = (&evaluator, &positions);
                        s.spawn(move || {
                            (t..positions.len())
                                .step_by(threads)
                                .map(|i| (i, evaluator.evaluate(positions[i].clone())))
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().expect("no thread panics"))
                    .collect()
            });
            assert_eq!(answers.len(), positions.len(), "{threads}/{batch}");
            for (i, got) in answers {
                let alone = net.forward(&positions[i]);
                assert!(
                    (got.value - alone.value).abs() < 1e-5,
                    "{threads}/{batch}: {i}"
                );
                assert_eq!(got.policy.len(), alone.policy.len());
                for (a, b) in got.policy.iter().zip(&alone.policy) {
                    assert!((a - b).abs() < 1e-4, "{threads}/{batch}: {i}");
                }
            }
            let q = evaluator.queue();
            assert!(
                q.answers.is_empty() && q.waiting.is_empty(),
                "{threads}/{batch}"
            );
        }
    }
}
