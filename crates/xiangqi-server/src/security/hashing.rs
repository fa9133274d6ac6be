//! Password hashing on a small bounded pool. Each Argon2 computation holds
//! its memory cost (19 MiB with the defaults) on a blocking thread; without
//! a bound, 120 parallel wrong logins held 2.1 GiB. At most `workers` hash
//! at once and at most `queue` more wait (for [`WAIT`] at most); the rest
//! are refused at once, so memory stays at `workers` × 19 MiB whatever
//! arrives. Unknown names are checked against a dummy hash of the same cost,
//! so the answer takes as long for a name that does not exist.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use tokio::sync::Semaphore;

/// How long a sign-in waits for a worker before it is refused.
pub const WAIT: Duration = Duration::from_secs(5);

/// Why no hash was computed.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    /// Every worker is busy and the queue is full, or the wait ran out.
    #[error("the server is busy checking passwords")]
    Busy,
    /// Hashing itself failed.
    #[error("hashing: {0}")]
    Failed(String),
}

/// The pool.
pub struct HashPool {
    /// Workers plus waiting places.
    places: Arc<Semaphore>,
    workers: Arc<Semaphore>,
    running: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
}

impl HashPool {
    /// `workers` hashing at once (at least 1), `queue` waiting.
    pub fn new(workers: usize, queue: usize) -> HashPool {
        let workers = workers.max(1);
        HashPool {
            places: Arc::new(Semaphore::new(workers + queue)),
            workers: Arc::new(Semaphore::new(workers)),
            running: Arc::new(AtomicUsize::new(0)),
            peak: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// The most hashes that ran at once so far.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// Runs `work` on a worker, on a blocking thread.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HashError> {
        let Ok(place) = self.places.clone().try_acquire_owned() else {
            return Err(HashError::Busy);
        };
        let permit = match tokio::time::timeout(WAIT, self.workers.clone().acquire_owned()).await {
            Ok(Ok(permit)) => permit,
            _ => return Err(HashError::Busy),
        };
        let (running, peak) = (self.running.clone(), self.peak.clone());
        tokio::task::spawn_blocking(move || {
            let now = running.fetch_add(1, Ordering::Relaxed) + 1;
            peak.fetch_max(now, Ordering::Relaxed);
            let answer = work();
            running.fetch_sub(1, Ordering::Relaxed);
            drop((permit, place));
            answer
        })
        .await
        .map_err(|e| HashError::Failed(format!("the hashing task: {e}")))
    }

    /// The Argon2 PHC string of `password`.
    pub async fn hash(&self, password: String) -> Result<String, HashError> {
        self.run(move || {
            let salt = SaltString::generate(&mut OsRng);
            Argon2::default()
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(|e| HashError::Failed(e.to_string()))
        })
        .await?
    }

    /// Whether `password` matches `hash`; without a hash (an unknown name,
    /// a guest) the dummy hash is checked instead, so both take as long,
    /// and the answer is no.
    pub async fn verify(&self, password: String, hash: Option<String>) -> Result<bool, HashError> {
        self.run(move || {
            let known = hash.is_some();
            let text = hash.unwrap_or_else(|| dummy_hash().to_string());
            let matches = PasswordHash::new(&text)
                .map(|parsed| {
                    Argon2::default()
                        .verify_password(password.as_bytes(), &parsed)
                        .is_ok()
                })
                .unwrap_or(false);
            known && matches
        })
        .await
    }
}

/// A hash of a random password with the cost of real ones, made once.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        let password = crate::ids::new_token();
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_and_verifies_and_an_unknown_name_never_matches() {
        let pool = HashPool::new(1, 0);
        let hash = pool.hash("correct horse".into()).await.unwrap();
        assert!(pool
            .verify("correct horse".into(), Some(hash.clone()))
            .await
            .unwrap());
        assert!(!pool.verify("wrong horse".into(), Some(hash)).await.unwrap());
        assert!(!pool.verify("anything".into(), None).await.unwrap());
        assert_eq!(pool.peak(), 1);
    }

    #[tokio::test]
    async fn a_full_pool_refuses_at_once() {
        let pool = Arc::new(HashPool::new(1, 0));
        let (started, wait) = tokio::sync::oneshot::channel();
        let (release, hold) = std::sync::mpsc::channel::<()>();
        let busy = pool.clone();
        let first = tokio::spawn(async move {
            busy.run(move || {
                let _ = started.send(());
                let _ = hold.recv();
            })
            .await
        });
        wait.await.unwrap();
        assert!(matches!(pool.run(|| ()).await, Err(HashError::Busy)));
        release.send(()).unwrap();
        first.await.unwrap().unwrap();
        pool.run(|| ()).await.unwrap();
    }
}
