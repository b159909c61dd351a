//! Signed allowlist: pins, payload, DSSE envelopes, keys and the root of trust (pure).
