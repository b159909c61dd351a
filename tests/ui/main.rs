//! Tests of the web UI against the real application: sessions, CSRF, roles
//! and headers over HTTP (on SQLite and PostgreSQL), and end-to-end flows in
//! headless Chromium over WebDriver.

mod helpers;

mod browser;
mod crawl_credentials;
mod hardening;
mod pages;
mod security;
