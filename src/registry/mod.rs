//! The registry: the `server.json` model and its validation, namespaces,
//! credentials, the version lifecycle, and publishing.

pub mod crawl_secrets;
pub mod credentials;
pub mod lifecycle;
pub mod ownership;
pub mod publish;
pub mod server_json;
pub mod versioning;
