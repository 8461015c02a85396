//! The learned players' net, as a spec names it: the weights built into the
//! binary (`level:9`, and `nn:` or `policy` without `weights=`), or a file
//! given on the command line; and the raw-policy player, which steps where
//! the net's policy points without any search.

use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use virus_wars_net::planes::{encode, index};
use virus_wars_net::{sha256, NetError, Network};
use virus_wars_rules::{AnyPosition, Step, Symmetry};

use crate::player::StepPlayer;

/// The built-in weights (see `crates/net/weights/README.md`).
pub const BUILTIN_WEIGHTS: &[u8] = include_bytes!("../../net/weights/builtin.safetensors");
/// Their SHA-256, as `crates/net/weights/README.md` records it.
pub const BUILTIN_SHA256: &str = "3ac31271767264fce5e8fe888fc8f00891c60f4b133b0afec71795fc14d43d38";

/// The built-in view net, which reads a side's view under fog of war
/// (`view-weights=builtin`, level 9's; see `crates/net/weights/README.md`).
pub const BUILTIN_VIEW_WEIGHTS: &[u8] = include_bytes!("../../net/weights/view.safetensors");
/// Their SHA-256, as `crates/net/weights/README.md` records it.
pub const BUILTIN_VIEW_SHA256: &str =
    "e563bd917a94767959d2810910b0a6af6489f73f039f7f3025c9cf93ddc07ba6";

/// A loaded net and where it came from.
#[derive(Clone)]
pub struct NetChoice {
    /// The file it was read from; None for the built-in weights.
    pub file: Option<String>,
    pub net: Arc<Network>,
    /// SHA-256 of the weights file.
    pub hash: String,
}

impl NetChoice {
    /// The weights built into the binary (read once).
    pub fn builtin() -> NetChoice {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        built_in(&NET, BUILTIN_WEIGHTS)
    }

    /// The built-in view net (read once).
    pub fn builtin_view() -> NetChoice {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        built_in(&NET, BUILTIN_VIEW_WEIGHTS)
    }

    /// The weights in `path`, checked.
    pub fn load(path: &str) -> Result<NetChoice, NetError> {
        let bytes = virus_wars_net::weights::read_file(Path::new(path))?;
        let net = Network::from_bytes(&bytes)?;
        Ok(NetChoice {
            file: Some(path.to_string()),
            net: Arc::new(net),
            hash: sha256(&bytes),
        })
    }

    /// Whether this is a file named by the spec (which a server must never
    /// let a network peer do).
    pub fn is_file(&self) -> bool {
        self.file.is_some()
    }

    /// The file the net was read from (none for the built-in one).
    pub fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }

    pub fn path(&self) -> Option<&Path> {
        self.file.as_deref().map(Path::new)
    }
}

/// A net built into the binary, read once into `cell`.
fn built_in(cell: &'static OnceLock<Arc<Network>>, bytes: &'static [u8]) -> NetChoice {
    let net = cell.get_or_init(|| {
        Arc::new(Network::from_bytes(bytes).expect("the built-in weights are checked by a test"))
    });
    NetChoice {
        file: None,
        net: net.clone(),
        hash: sha256(bytes),
    }
}

impl PartialEq for NetChoice {
    fn eq(&self, other: &NetChoice) -> bool {
        self.file == other.file && self.hash == other.hash
    }
}

impl fmt::Debug for NetChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let from = self.file.as_deref().unwrap_or("built-in");
        write!(
            f,
            "NetChoice({from}, {})",
            &self.hash[..12.min(self.hash.len())]
        )
    }
}

/// One forward pass a step: the legal cell the net's policy likes best
/// (a pass only when no cell is legal).
pub struct PolicyPlayer {
    net: Arc<Network>,
}

impl PolicyPlayer {
    pub fn new(net: Arc<Network>) -> PolicyPlayer {
        PolicyPlayer { net }
    }

    /// The step the policy chooses at `p`.
    pub fn best(&self, p: &AnyPosition) -> Option<Step> {
        let steps = p.legal_steps();
        let cells: Vec<_> = steps
            .iter()
            .filter_map(|s| match s {
                Step::Cell(c) => Some(*c),
                Step::Pass => None,
            })
            .collect();
        if cells.is_empty() {
            return steps.first().copied();
        }
        let out = self.net.forward(&encode(p, Symmetry::Identity));
        let width = virus_wars_rules::with_position!(p, q => q.geometry().width());
        let at: Vec<usize> = cells.iter().map(|&c| index(c, width)).collect();
        let priors = out.priors(&at);
        let best = (0..cells.len()).max_by(|&a, &b| priors[a].total_cmp(&priors[b]))?;
        Some(Step::Cell(cells[best]))
    }
}

impl StepPlayer for PolicyPlayer {
    fn name(&self) -> String {
        "policy".into()
    }

    fn pick(&mut self, p: &AnyPosition) -> Option<Step> {
        self.best(p)
    }
}
