//! `compaction-drift/retention@1`: retention measured from sessions as
//! JSON, the one serialisation of [`MeasuredRetention`].

use serde::ser::{SerializeMap, SerializeStruct, Serializer};

use super::*;
use drift_core::Retention;

impl MeasuredRetention {
    /// The `format` of its JSON (`drift audit --retention --format json`).
    pub const FORMAT: &'static str = "compaction-drift/retention@1";

    /// The `retention` block a scenario file can use: [`retention`]'s
    /// estimates, each to two decimals.
    ///
    /// [`retention`]: MeasuredRetention::retention
    pub fn scenario_retention(&self) -> Vec<(Kind, f64)> {
        self.retention()
            .into_iter()
            .map(|(k, v)| (k, libm::round(v * 100.0) / 100.0))
            .collect()
    }
}

/// `compaction-drift/retention@1`: an object of `compactions`, `format`
/// ([`MeasuredRetention::FORMAT`]), `kinds`, `logs`, `retention` and
/// `unreadable`, every object's keys in alphabetical order. `kinds` holds,
/// by kind id, the [`FateCounts`] (`rules`, `kept`, `weakened`, `dropped`,
/// `contradicted`), the `estimate`, its 95% interval (`low`, `high`; 0 and 1
/// with nothing measured), the model's `default` retention, the `fit_gap`
/// and `by_depth`: per depth going in, the `steps` and the share
/// `carried` (`null` without steps). `retention` is
/// [`MeasuredRetention::scenario_retention`], by kind id.
impl Serialize for MeasuredRetention {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("MeasuredRetention", 6)?;
        m.serialize_field("compactions", &self.compactions)?;
        m.serialize_field("format", Self::FORMAT)?;
        m.serialize_field("kinds", &Kinds(self))?;
        m.serialize_field("logs", &self.logs)?;
        m.serialize_field("retention", &ById(self.scenario_retention()))?;
        m.serialize_field("unreadable", &self.unreadable)?;
        m.end()
    }
}

/// Values by kind, as an object keyed by kind id in alphabetical order.
struct ById<T>(Vec<(Kind, T)>);

impl<T: Serialize> Serialize for ById<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut entries: Vec<&(Kind, T)> = self.0.iter().collect();
        entries.sort_by_key(|(k, _)| k.id());
        let mut m = s.serialize_map(Some(entries.len()))?;
        for (k, v) in entries {
            m.serialize_entry(k.id(), v)?;
        }
        m.end()
    }
}

struct Kinds<'a>(&'a MeasuredRetention);

impl Serialize for Kinds<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let defaults = Retention::default();
        ById(
            self.0
                .kinds
                .iter()
                .map(|(k, c)| (*k, KindOut::of(c, defaults.get(*k))))
                .collect(),
        )
        .serialize(s)
    }
}

#[derive(Serialize)]
struct KindOut {
    by_depth: Vec<DepthOut>,
    contradicted: usize,
    default: f64,
    dropped: usize,
    estimate: Option<f64>,
    fit_gap: Option<f64>,
    high: f64,
    kept: usize,
    low: f64,
    rules: usize,
    weakened: usize,
}

impl KindOut {
    fn of(c: &FateCounts, default: f64) -> KindOut {
        let (low, high) = c.interval().unwrap_or((0.0, 1.0));
        KindOut {
            by_depth: c
                .by_depth
                .iter()
                .enumerate()
                .map(|(depth_in, &(steps, carried))| DepthOut {
                    carried: (steps > 0).then(|| carried / steps as f64),
                    depth_in,
                    steps,
                })
                .collect(),
            contradicted: c.contradicted,
            default,
            dropped: c.dropped,
            estimate: c.estimate(),
            fit_gap: c.fit_gap(),
            high,
            kept: c.kept,
            low,
            rules: c.rules,
            weakened: c.weakened,
        }
    }
}

#[derive(Serialize)]
struct DepthOut {
    carried: Option<f64>,
    depth_in: usize,
    steps: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_is_the_retention_document() {
        let measured = MeasuredRetention {
            logs: 2,
            compactions: 3,
            unreadable: 1,
            kinds: alloc::vec![
                (
                    Kind::StandingRule,
                    FateCounts {
                        rules: 4,
                        kept: 2,
                        weakened: 1,
                        dropped: 1,
                        contradicted: 0,
                        by_depth: [(3, 2.5), (1, 0.0), (0, 0.0)],
                    },
                ),
                (
                    Kind::CarveOut,
                    FateCounts {
                        rules: 1,
                        kept: 1,
                        by_depth: [(1, 1.0), (0, 0.0), (0, 0.0)],
                        ..FateCounts::default()
                    },
                ),
            ],
        };
        let (low, high) = measured.kinds[0].1.interval().unwrap();
        let (one_low, _) = measured.kinds[1].1.interval().unwrap();
        let expected = serde_json::json!({
            "compactions": 3,
            "format": "compaction-drift/retention@1",
            "kinds": {
                "carve_out": {
                    "by_depth": [
                        {"carried": 1.0, "depth_in": 0, "steps": 1},
                        {"carried": null, "depth_in": 1, "steps": 0},
                        {"carried": null, "depth_in": 2, "steps": 0},
                    ],
                    "contradicted": 0, "default": 0.6, "dropped": 0, "estimate": 1.0,
                    "fit_gap": null, "high": 1.0, "kept": 1, "low": one_low, "rules": 1,
                    "weakened": 0,
                },
                "standing_rule": {
                    "by_depth": [
                        {"carried": 2.5 / 3.0, "depth_in": 0, "steps": 3},
                        {"carried": 0.0, "depth_in": 1, "steps": 1},
                        {"carried": null, "depth_in": 2, "steps": 0},
                    ],
                    "contradicted": 0, "default": 0.75, "dropped": 1, "estimate": 0.625,
                    "fit_gap": null, "high": high, "kept": 2, "low": low, "rules": 4,
                    "weakened": 1,
                },
            },
            "logs": 2,
            "retention": {"carve_out": 1.0, "standing_rule": 0.63},
            "unreadable": 1,
        });
        assert_eq!(serde_json::to_value(&measured).unwrap(), expected);
        // The keys in alphabetical order, the kinds by id, whatever the
        // order they were measured in.
        let text = serde_json::to_string(&measured).unwrap();
        assert!(text.starts_with(
            r#"{"compactions":3,"format":"compaction-drift/retention@1","kinds":{"carve_out":"#
        ));
        assert!(text.ends_with(
            r#""logs":2,"retention":{"carve_out":1.0,"standing_rule":0.63},"unreadable":1}"#
        ));
    }
}
