//! The shipped models were trained from what is here. The rule finder's: the
//! labels of every person not frozen and the rule corpus. When a label or
//! a corpus document changes, this fails until `cargo xtask train`
//! rebuilds `crates/drift-session/model/finder.bin`.

use drift_eval::files;
use drift_session::rules::model::Model;

#[test]
fn the_shipped_model_is_trained_from_todays_labels() {
    let inputs = files::training_inputs().expect("the labels and the rule corpus read");
    let shipped = Model::shipped();
    assert_eq!(
        shipped.inputs, inputs,
        "crates/drift-session/model/finder.bin was trained from other labels \
         ({:016x}, today's are {inputs:016x}): run `cargo xtask train`",
        shipped.inputs
    );
}

/// The judge's shipped model was trained from what is here: the labelled
/// fates, the written pairs and the verdict and audit sets of the people
/// and sets it may learn from. When any changes, this fails until `cargo
/// xtask train` rebuilds `crates/drift-session/model/judge.bin`.
#[test]
fn the_shipped_judge_is_trained_from_todays_pairs() {
    let inputs = files::judge_inputs().expect("the labels and the pairs read");
    let shipped = drift_session::judge::model::JudgeModel::shipped();
    assert_eq!(
        shipped.inputs(),
        inputs,
        "crates/drift-session/model/judge.bin was trained from other pairs \
         ({:016x}, today's are {inputs:016x}): run `cargo xtask train`",
        shipped.inputs()
    );
}
