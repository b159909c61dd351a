//! Parallel publishes: distinct versions are all stored; one version published
//! fifty times at once is stored exactly once, with 49 conflicts and no 5xx.

use futures_util::future::join_all;
use reqwest::StatusCode;

use crate::helpers::{Backend, TestApp, npm_server};
use crate::on_both_backends;

on_both_backends!(
    fifty_parallel_publishes_of_distinct_versions_are_all_stored,
    fifty_parallel_publishes_of_one_version_store_it_once
);

async fn fifty_parallel_publishes_of_distinct_versions_are_all_stored(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    let docs: Vec<_> = (0..50)
        .map(|i| npm_server("com.example/parallel", &format!("1.0.{i}")))
        .collect();
    let statuses: Vec<StatusCode> = join_all(docs.iter().map(|d| app.publish(&token, d)))
        .await
        .iter()
        .map(|r| r.status())
        .collect();
    assert!(
        statuses.iter().all(|s| *s == StatusCode::CREATED),
        "{statuses:?}"
    );
    assert_eq!(app.count("versions").await, 50);
    assert_eq!(app.count("servers").await, 1);
    assert_eq!(app.count("jobs").await, 50);
}

async fn fifty_parallel_publishes_of_one_version_store_it_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    let doc = npm_server("com.example/race", "1.0.0");
    let statuses: Vec<StatusCode> = join_all((0..50).map(|_| app.publish(&token, &doc)))
        .await
        .iter()
        .map(|r| r.status())
        .collect();
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::CREATED)
            .count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::CONFLICT)
            .count(),
        49,
        "{statuses:?}"
    );
    assert_eq!(app.count("versions").await, 1);
    assert_eq!(app.count("jobs").await, 1);
}
