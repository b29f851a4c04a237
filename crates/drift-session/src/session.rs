//! A session read once: its transcript and the rules in force in it, which
//! the import, the session audit and the lineage all start from. A front
//! end that shows both the guesses of a log and its compactions reads the
//! log and finds its rules once, here, instead of once for each.

use crate::audit::{SessionAudit, audit_with_rules};
use crate::import::{ImportOptions, Imported, import_with_rules};
use crate::judge::FateJudge;
use crate::rules::{InForce, SessionFinder};
use crate::transcript::{Transcript, TranscriptError, read_transcript};

/// A transcript and its rules in force, read once.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// The log as messages and compactions.
    pub transcript: Transcript,
    /// Its rules, found once with the finder this crate ships.
    pub rules: InForce,
}

impl Session {
    /// The session of a transcript already read: its rules found.
    pub fn of(transcript: Transcript) -> Session {
        let rules = InForce::read(&transcript, &SessionFinder);
        Session { transcript, rules }
    }

    /// Reads `text` in any format [`read_transcript`] reads, and finds its
    /// rules.
    ///
    /// # Errors
    ///
    /// What [`read_transcript`] says of a text that is no transcript.
    pub fn read(text: &str) -> Result<Session, TranscriptError> {
        read_transcript(text).map(Session::of)
    }

    /// The session as a scenario: what [`crate::import()`] gives for its
    /// transcript, from the rules found here.
    pub fn import(&self, options: &ImportOptions) -> Imported {
        import_with_rules(&self.transcript, &self.rules, options)
    }

    /// Every compaction audited: what [`crate::audit_session`] gives for
    /// its transcript, from the rules found here.
    pub fn audit(&self) -> SessionAudit {
        audit_with_rules(&self.transcript, self.rules.clone(), &FateJudge::shipped())
    }
}
