//! Rescans of approved servers, drift detection and notifications.
