//! `gatehouse serve` and `gatehouse worker`: the process around an
//! [`Application`] — it starts as `startup` builds it and stops on SIGTERM or Ctrl-C.

use crate::config::Config;
use crate::startup::Application;

/// Resolves on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
    tracing::info!("shutdown requested");
}

/// `gatehouse serve`: HTTP plus in-process workers, until SIGTERM/Ctrl-C.
pub async fn run_serve(config: &Config) -> anyhow::Result<()> {
    Application::build(config)
        .await?
        .run_until(shutdown_signal())
        .await
}

/// `gatehouse worker`: scan workers only.
pub async fn run_worker(config: &Config) -> anyhow::Result<()> {
    Application::build_worker(config)
        .await?
        .run_until(shutdown_signal())
        .await
}
