//! Every scenario under every preset, and `compaction-drift/matrix@1`, the
//! JSON `drift matrix --format json` prints: what the CLI's table and the
//! page's Matrix tab both show.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct, Serializer};

use crate::policy::{PolicyChoice, Preset};
use crate::run::{OutcomeCounts, simulate};
use crate::scenario::Scenario;

/// The `format` of the matrix's JSON.
pub const MATRIX_FORMAT: &str = "compaction-drift/matrix@1";

/// One scenario under every preset of [`Preset::ALL`], in that order: its
/// outcome counts, or why it does not run under the preset.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixRow {
    /// The scenario's id.
    pub id: String,
    /// Per preset, the counts or the engine's error.
    pub cells: Vec<Result<OutcomeCounts, String>>,
}

impl MatrixRow {
    /// `scenario` run under each preset.
    pub fn of(scenario: &Scenario) -> MatrixRow {
        let cells = Preset::ALL
            .iter()
            .map(|&preset| {
                let mut s = scenario.clone();
                s.policy = PolicyChoice::Preset(preset);
                simulate(&s).map(|r| r.counts()).map_err(|e| e.to_string())
            })
            .collect();
        MatrixRow {
            id: scenario.id.clone(),
            cells,
        }
    }
}

/// Scenarios, each under every preset.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    /// A row per scenario, in the order given.
    pub rows: Vec<MatrixRow>,
}

impl Matrix {
    /// Every one of `scenarios` under every preset.
    pub fn of<'a>(scenarios: impl IntoIterator<Item = &'a Scenario>) -> Matrix {
        Matrix {
            rows: scenarios.into_iter().map(MatrixRow::of).collect(),
        }
    }

    /// `compaction-drift/matrix@1`, pretty-printed, with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

impl Serialize for Matrix {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("Matrix", 3)?;
        m.serialize_field("format", MATRIX_FORMAT)?;
        let presets: Vec<&str> = Preset::ALL.iter().map(|p| p.id()).collect();
        m.serialize_field("presets", &presets)?;
        m.serialize_field("scenarios", &Rows(&self.rows))?;
        m.end()
    }
}

struct Rows<'a>(&'a [MatrixRow]);

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for row in self.0 {
            seq.serialize_element(&Row(row))?;
        }
        seq.end()
    }
}

struct Row<'a>(&'a MatrixRow);

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("Row", 2)?;
        m.serialize_field("id", &self.0.id)?;
        let cells: Vec<Cell<'_>> = Preset::ALL
            .iter()
            .zip(&self.0.cells)
            .map(|(&preset, cell)| Cell { preset, cell })
            .collect();
        m.serialize_field("cells", &cells)?;
        m.end()
    }
}

struct Cell<'a> {
    preset: Preset,
    cell: &'a Result<OutcomeCounts, String>,
}

impl Serialize for Cell<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("policy", self.preset.id())?;
        match self.cell {
            Ok(counts) => m.serialize_entry("counts", &Counts(counts))?,
            Err(e) => m.serialize_entry("error", e)?,
        }
        m.end()
    }
}

struct Counts<'a>(&'a OutcomeCounts);

impl Serialize for Counts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(6))?;
        for (o, n) in self.0.iter() {
            m.serialize_entry(o.id(), &n)?;
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::{builtin, builtin_ids};

    #[test]
    fn the_json_has_every_cell_in_preset_order() {
        let scenarios: Vec<Scenario> = builtin_ids().filter_map(builtin).collect();
        let matrix = Matrix::of(&scenarios);
        let doc: serde_json::Value = serde_json::from_str(&matrix.to_json()).unwrap();
        assert_eq!(doc["format"], MATRIX_FORMAT);
        assert_eq!(doc["presets"].as_array().unwrap().len(), Preset::ALL.len());
        let rows = doc["scenarios"].as_array().unwrap();
        assert_eq!(rows.len(), scenarios.len());
        for (row, s) in rows.iter().zip(&scenarios) {
            assert_eq!(row["id"], s.id.as_str());
            let cells = row["cells"].as_array().unwrap();
            for (cell, p) in cells.iter().zip(Preset::ALL) {
                assert_eq!(cell["policy"], p.id());
                let counts = cell["counts"].as_object().unwrap();
                let total: u64 = counts.values().map(|n| n.as_u64().unwrap()).sum();
                assert_eq!(total, s.actions.len() as u64);
            }
        }
    }
}
