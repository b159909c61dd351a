//! RFC 3339 timestamps as the documents carry them: UTC, whole seconds, `Z`
//! (`2026-12-02T10:00:00Z`), so every implementation writes the same bytes.

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};
use serde::{Deserialize, Deserializer, Serializer};

/// Formats `t` the way the documents carry it.
pub fn format(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// `t` without its fraction of a second: what a document can carry, so a
/// value built in memory equals the one read back from its bytes.
pub fn whole_seconds(t: DateTime<Utc>) -> DateTime<Utc> {
    t.trunc_subsecs(0)
}

/// Serde `serialize_with` for a `DateTime<Utc>` field.
pub fn serialize<S: Serializer>(t: &DateTime<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format(t))
}

/// Serde `deserialize_with` for a `DateTime<Utc>` field: any RFC 3339 time,
/// converted to UTC (a verifier should be liberal in the offsets it reads).
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<DateTime<Utc>, D::Error> {
    let raw = String::deserialize(deserializer)?;
    DateTime::parse_from_rfc3339(&raw)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| serde::de::Error::custom(format_args!("not an RFC 3339 time: {e}")))
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn a_time_is_written_in_whole_seconds_with_z() {
        let t = Utc.with_ymd_and_hms(2026, 12, 2, 10, 0, 0).unwrap()
            + chrono::Duration::milliseconds(750);

        assert_eq!(format(&t), "2026-12-02T10:00:00Z");
    }
}
