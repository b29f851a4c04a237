//! Why a `drift` command failed: the one error every fallible function of
//! the command returns, with the line it prints and the exit code it gives.
//!
//! A finding (`check` with an action failing, `audit` with a rule lost) is
//! no error: it is the report, printed on stdout, with exit code 1.

use std::fmt;

use crate::USAGE;

/// A failure, as `drift` reports it: [`Error::code`] is the exit code and
/// the [`Display`](fmt::Display) text what follows `drift: ` on stderr.
#[derive(Debug, PartialEq, Eq)]
pub enum Error {
    /// The command line asks for what `drift` does not do (an unknown
    /// command or flag, a flag of another command, a missing input): the
    /// message, then the usage. Exit 2.
    Usage(String),
    /// Something given cannot be used: a file unreadable, not UTF-8 or not
    /// what it should be, a scenario invalid, a setting out of range; or a
    /// file or the report that cannot be written. Exit 2.
    Input {
        /// The file the message is about, when there is one: the message
        /// is then said of it (`PATH: MESSAGE`).
        path: Option<String>,
        /// What is wrong (for a file, the field or the line).
        message: String,
    },
    /// `drift hook` restated nothing, and says why. Exit 0: the harness
    /// runs the hook, and it never stands in the harness's way.
    Hook(String),
}

impl Error {
    /// A command line `drift` does not take.
    pub fn usage(message: impl Into<String>) -> Error {
        Error::Usage(message.into())
    }

    /// An input that cannot be used, said of no file in particular.
    pub fn input(message: impl Into<String>) -> Error {
        Error::Input {
            path: None,
            message: message.into(),
        }
    }

    /// What is wrong with the file at `path` (or with writing it).
    pub fn at(path: impl Into<String>, message: impl fmt::Display) -> Error {
        Error::Input {
            path: Some(path.into()),
            message: message.to_string(),
        }
    }

    /// The exit code.
    pub fn code(&self) -> u8 {
        match self {
            Error::Usage(_) | Error::Input { .. } => 2,
            Error::Hook(_) => 0,
        }
    }

    /// The one line `drift hook` prints for it after `drift hook: `, for
    /// any error while the hook runs (the usage is for people at a
    /// terminal).
    pub fn hook_line(&self) -> String {
        let text = self.to_string();
        let first = text.lines().next().unwrap_or_default();
        first.strip_prefix("hook: ").unwrap_or(first).to_string()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(message) => write!(f, "{message}\n\n{USAGE}"),
            Error::Input {
                path: Some(path),
                message,
            } => write!(f, "{path}: {message}"),
            Error::Input {
                path: None,
                message,
            } => f.write_str(message),
            Error::Hook(line) => write!(f, "hook: {line}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<lexopt::Error> for Error {
    fn from(e: lexopt::Error) -> Error {
        Error::usage(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_says_its_line_and_gives_its_code() {
        let usage = Error::usage("run takes one scenario");
        assert_eq!(usage.code(), 2);
        assert_eq!(
            usage.to_string(),
            format!("run takes one scenario\n\n{USAGE}")
        );
        let file = Error::at("a.json", "cannot read: gone");
        assert_eq!(
            (file.code(), file.to_string()),
            (2, "a.json: cannot read: gone".to_string())
        );
        let set = Error::input("--set: out of range");
        assert_eq!(set.to_string(), "--set: out of range");
        let hook = Error::Hook("stdin is not JSON".to_string());
        assert_eq!(hook.code(), 0);
        assert_eq!(hook.hook_line(), "stdin is not JSON");
        assert_eq!(
            Error::usage("hook: no hook for \"x\"").hook_line(),
            "no hook for \"x\""
        );
    }
}
