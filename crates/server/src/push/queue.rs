//! The pushes waiting to be sent, fair between accounts: each account's
//! sends wait in its own line, the accounts take turns (one send each,
//! round and round), and an account has one send in flight at a time. So
//! an account whose endpoints never answer holds one sender, and delays
//! another account's first push by at most one send. Bounded: an account
//! keeps at most `most_each` sends waiting (past it the oldest goes: a
//! newer notification says more), and at most `most_accounts` accounts
//! wait (past it a new one is refused). No I/O.

use std::collections::{HashMap, HashSet, VecDeque};

/// What adding a send did.
#[derive(Debug, PartialEq, Eq)]
pub enum Added {
    Queued,
    /// Queued, and the account's oldest waiting send went to make room.
    DroppedOldest,
    /// Refused: too many accounts wait already.
    Refused,
}

pub struct Queue<T> {
    waiting: HashMap<String, VecDeque<T>>,
    /// Accounts with sends waiting and none in flight, in turn order.
    ring: VecDeque<String>,
    /// Accounts with a send in flight.
    busy: HashSet<String>,
    most_each: usize,
    most_accounts: usize,
}

impl<T> Queue<T> {
    pub fn new(most_each: usize, most_accounts: usize) -> Self {
        Queue {
            waiting: HashMap::new(),
            ring: VecDeque::new(),
            busy: HashSet::new(),
            most_each: most_each.max(1),
            most_accounts,
        }
    }

    /// A send for `account`, at the end of its line.
    pub fn add(&mut self, account: &str, job: T) -> Added {
        if let Some(line) = self.waiting.get_mut(account) {
            let dropped = line.len() >= self.most_each;
            if dropped {
                line.pop_front();
            }
            line.push_back(job);
            return if dropped {
                Added::DroppedOldest
            } else {
                Added::Queued
            };
        }
        if self.waiting.len() >= self.most_accounts {
            return Added::Refused;
        }
        self.waiting
            .insert(account.to_string(), VecDeque::from([job]));
        if !self.busy.contains(account) {
            self.ring.push_back(account.to_string());
        }
        Added::Queued
    }

    /// The next send: the first account in turn that has none in flight
    /// (it is marked busy until [`Queue::done`]).
    pub fn next(&mut self) -> Option<(String, T)> {
        loop {
            let account = self.ring.pop_front()?;
            let Some(line) = self.waiting.get_mut(&account) else {
                continue;
            };
            let Some(job) = line.pop_front() else {
                self.waiting.remove(&account);
                continue;
            };
            if line.is_empty() {
                self.waiting.remove(&account);
            }
            self.busy.insert(account.clone());
            return Some((account, job));
        }
    }

    /// `account`'s send is over: its next one (if any) takes its turn at
    /// the end of the round.
    pub fn done(&mut self, account: &str) {
        self.busy.remove(account);
        if self.waiting.contains_key(account) {
            self.ring.push_back(account.to_string());
        }
    }

    /// Sends waiting, in all.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.waiting.values().map(VecDeque::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accounts_take_turns_and_one_send_each_is_in_flight() {
        let mut q = Queue::new(10, 100);
        for k in 0..5 {
            q.add("slow", format!("slow{k}"));
        }
        q.add("ann", "ann0".to_string());
        // The slow account's first send goes; while it is in flight its
        // others wait, and Ann's goes next.
        assert_eq!(q.next(), Some(("slow".into(), "slow0".into())));
        assert_eq!(q.next(), Some(("ann".into(), "ann0".into())));
        assert_eq!(q.next(), None, "slow has one in flight");
        q.add("bo", "bo0".to_string());
        q.done("slow");
        assert_eq!(q.next(), Some(("bo".into(), "bo0".into())));
        assert_eq!(q.next(), Some(("slow".into(), "slow1".into())));
        assert_eq!(q.len(), 3);
    }

    #[test]
    fn a_line_and_the_accounts_are_bounded() {
        let mut q = Queue::new(2, 2);
        assert_eq!(q.add("a", 1), Added::Queued);
        assert_eq!(q.add("a", 2), Added::Queued);
        assert_eq!(q.add("a", 3), Added::DroppedOldest);
        assert_eq!(q.add("b", 1), Added::Queued);
        assert_eq!(q.add("c", 1), Added::Refused);
        assert_eq!(q.next(), Some(("a".into(), 2)));
        assert_eq!(q.len(), 2);
    }
}
