//! Passwords: hashed with Argon2id (OWASP's parameters, the `argon2`
//! crate's defaults), checked against common passwords by `zxcvbn`'s own
//! dictionaries, never logged, stored or compared in the clear. Hashing is
//! slow on purpose: it runs on blocking workers, a few at a time, so that
//! logins cannot starve the games.

use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use tokio::sync::Semaphore;

/// Why a password was not hashed, checked or taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    /// Too short, too long or easy to guess: what is wrong with it.
    #[error("{0}")]
    Weak(String),
    /// Many new passwords are being checked at once.
    #[error("many new passwords are being checked at once: try again in a few seconds")]
    Busy,
    /// The hashing workers or the estimator failed (`what`).
    #[error("{0}")]
    Failed(&'static str),
}

/// Shortest and longest password, in characters.
pub const MIN_CHARS: usize = 8;
pub const MAX_CHARS: usize = 128;

/// Hashes and checks passwords, a few at a time.
pub struct Passwords {
    permits: Arc<Semaphore>,
    /// The strength estimator's own worker, apart from the hashing ones
    /// (which logins use): a flood of sign-ups waits here, not in logins.
    estimator: Arc<Semaphore>,
    /// A hash of no one's password: an unknown name is checked against it,
    /// so that it takes as long as a wrong password.
    decoy: String,
}

impl Passwords {
    pub fn new(at_once: usize) -> Passwords {
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).expect("the operating system's random generator works");
        let decoy = hash_now("decoy password of nobody", &salt).unwrap_or_default();
        Passwords {
            permits: Arc::new(Semaphore::new(at_once.max(1))),
            estimator: Arc::new(Semaphore::new(1)),
            decoy,
        }
    }

    /// The PHC string of a new password's hash, with a fresh salt.
    pub async fn hash(&self, password: &str) -> Result<String, PasswordError> {
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).expect("the operating system's random generator works");
        let password = password.to_string();
        self.blocking(move || hash_now(&password, &salt)).await?
    }

    /// Whether `password` is the one `hash` was made from; with no hash
    /// (no such account) it is checked against the decoy, and is false.
    pub async fn verify(&self, password: &str, hash: Option<&str>) -> Result<bool, PasswordError> {
        let (real, hash) = match hash {
            Some(h) if !h.is_empty() => (true, h.to_string()),
            _ => (false, self.decoy.clone()),
        };
        let password = password.to_string();
        let same = self
            .blocking(move || {
                PasswordHash::new(&hash).is_ok_and(|parsed| {
                    Argon2::default()
                        .verify_password(password.as_bytes(), &parsed)
                        .is_ok()
                })
            })
            .await?;
        Ok(real && same)
    }

    /// Why a new password is refused (`weak_password`), if it is: too short,
    /// too long, or easy to guess (common, or made of the name).
    pub async fn check_strength(&self, password: &str, name: &str) -> Result<(), PasswordError> {
        let chars = password.chars().count();
        if chars < MIN_CHARS {
            return Err(weak(format!(
                "the password has {chars} characters: at least {MIN_CHARS} are needed"
            )));
        }
        if chars > MAX_CHARS {
            return Err(weak(format!(
                "the password has {chars} characters: at most {MAX_CHARS}"
            )));
        }
        // The estimator's time grows faster than the length: it judges the
        // first ESTIMATED characters (a password whose start is hard to
        // guess is hard to guess).
        let password: String = password.chars().take(ESTIMATED).collect();
        let name = name.to_string();
        let _turn = tokio::time::timeout(ESTIMATOR_WAIT, self.estimator.clone().acquire_owned())
            .await
            .map_err(|_| busy())?
            .map_err(|_| PasswordError::Failed("the password checker has stopped"))?;
        let entropy = tokio::task::spawn_blocking(move || zxcvbn::zxcvbn(&password, &[&name]))
            .await
            .map_err(|_| PasswordError::Failed("a password check failed"))?;
        if (entropy.score() as u8) < 2 {
            let why = entropy
                .feedback()
                .and_then(|f| f.warning())
                .map_or_else(|| "it is easy to guess".to_string(), |w| w.to_string());
            return Err(weak(format!(
                "this password is too easy to guess ({why}): choose a longer one, a few unrelated words"
            )));
        }
        Ok(())
    }

    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, PasswordError> {
        let _permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| PasswordError::Failed("the password checker has stopped"))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|_| PasswordError::Failed("a password check failed"))
    }
}

/// How many characters of a new password the strength estimator reads.
pub const ESTIMATED: usize = 40;
/// Longest a strength check waits for the estimator.
const ESTIMATOR_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

fn busy() -> PasswordError {
    PasswordError::Busy
}

fn weak(message: String) -> PasswordError {
    PasswordError::Weak(message)
}

fn hash_now(password: &str, salt: &[u8; 16]) -> Result<String, PasswordError> {
    let salt = SaltString::encode_b64(salt).map_err(|_| PasswordError::Failed("a salt"))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|_| PasswordError::Failed("the password could not be hashed"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_verify_and_weak_passwords_are_refused() {
        let p = Passwords::new(2);
        let hash = p.hash("correct horse battery staple").await.unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(!hash.contains("horse"));
        assert!(p
            .verify("correct horse battery staple", Some(&hash))
            .await
            .unwrap());
        assert!(!p
            .verify("correct horse battery stapl", Some(&hash))
            .await
            .unwrap());
        assert!(!p.verify("decoy password of nobody", None).await.unwrap());
        assert!(!p.verify("x", Some("not a hash")).await.unwrap());
        let refused = |pw: &'static str, name: &'static str| {
            let p = &p;
            async move { p.check_strength(pw, name).await.unwrap_err() }
        };
        for (pw, says) in [
            ("short", "at least 8"),
            ("password1", "too easy to guess"),
            ("qwertyuiop", "too easy to guess"),
            ("iloveyou123", "too easy to guess"),
            ("Password123!", "too easy to guess"),
        ] {
            let e = refused(pw, "alice").await;
            assert!(
                matches!(&e, PasswordError::Weak(m) if m.contains(says)),
                "{pw}: {e}"
            );
        }
        assert!(p
            .check_strength("violet tram under paper", "alice")
            .await
            .is_ok());
        assert!(p.check_strength(&"ab3".repeat(50), "a").await.is_err());
        // The estimator reads the first ESTIMATED characters: a guessable
        // start is refused whatever follows it.
        let padded = format!("{}{}", "password".repeat(5), "Zq7vR9kLw2Xp4Nt8");
        assert_eq!(padded.chars().take(ESTIMATED).count(), ESTIMATED);
        assert!(matches!(
            p.check_strength(&padded, "alice").await.unwrap_err(),
            PasswordError::Weak(_)
        ));
    }
}
