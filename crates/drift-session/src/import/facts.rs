//! The rules in force read as facts: each with its kind, role, turn and
//! the resource it names, and the bindings the log states.

use super::*;

/// A fact found, with what governance needs to know about it.
pub(super) struct FoundFact {
    pub(super) fact: Fact,
    pub(super) guess: FactGuess,
    /// Its message.
    pub(super) message: usize,
    /// The resources it mentions, canonical.
    pub(super) resources: Vec<String>,
    /// For a binding, the kind of name its resource is.
    pub(super) bound: Option<EntityKind>,
}

/// The scenario role of a fact from `m`: a project file and a hook's
/// context are the system's (the harness loads them into every context).
pub(super) fn fact_role(m: &Message) -> Role {
    match m.provenance {
        Provenance::ProjectFile | Provenance::Hook => Role::System,
        _ => m.role.fact_role().unwrap_or(Role::User),
    }
}

/// Entity kinds that name a resource an action can act on.
pub(super) fn names_resource(kind: EntityKind) -> bool {
    matches!(
        kind,
        EntityKind::Identifier | EntityKind::Ticket | EntityKind::Path
    )
}

/// Resources shorter than this are not compared.
pub(super) const MIN_RESOURCE: usize = 3;

/// The facts of a session: its rules in force ([`InForce`], the rules the
/// session audit judges), each at its first statement, in order.
pub(super) fn read_facts(
    transcript: &Transcript,
    in_force: &InForce,
    turns: &[MessageTurn],
) -> Vec<FoundFact> {
    let briefs: Vec<(usize, &str)> = transcript
        .messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m.provenance == Provenance::Brief)
        .map(|(i, m)| (i, m.text.as_str()))
        .collect();
    let mut order: Vec<usize> = (0..in_force.rules.len()).collect();
    order.sort_by_key(|&i| {
        let r = &in_force.rules[i];
        (r.message, r.span.start)
    });
    let mut ids = Ids::default();
    let mut facts = Vec::with_capacity(order.len());
    for index in order {
        let r = &in_force.rules[index];
        // A rule its speaker withdrew is no rule the session keeps; one
        // the finder is not sure of is no fact to simulate.
        if r.withdrawn.is_some() || !r.sure {
            continue;
        }
        let Some(m) = transcript.messages.get(r.message) else {
            continue;
        };
        let message = r.message;
        let clause = r.span;
        // The sentence it is in: its lead-in names resources too ("We are
        // still on libfoo 2.3.1, do not bump.").
        let context = scan::sentences(&m.text)
            .into_iter()
            .map(|s| s.span)
            .find(|s| s.start <= clause.start && clause.end <= s.end)
            .filter(|s| s.end - s.start <= 2 * (clause.end - clause.start) + 160)
            .unwrap_or(clause);
        let role = match r.authority {
            Authority::System | Authority::Instructions if m.provenance != Provenance::Skill => {
                Role::System
            }
            Authority::ToolPolicy => Role::Tool,
            _ => fact_role(m),
        };
        // A subagent sees its own messages and its brief: a fact is
        // forwarded when it is the subagent's, or a brief after it carries
        // it (or there is no subagent to forward to).
        let forwarded = m.agent.is_some()
            || briefs.is_empty()
            || briefs.iter().any(|&(i, brief)| {
                i > message && LexicalEntailment.judge(&r.text, brief).entailment >= 0.5
            });
        let turn = if role == Role::System {
            0
        } else {
            turns.get(message).map_or(1, |t| t.turn.max(1))
        };
        let tokens = scan::tokens(&m.text, context);
        let id = ids.unique(&slug(&scan::tokens(&m.text, clause)));
        let mut resources: Vec<String> = tokens
            .iter()
            .filter(|t| t.entity.is_some_and(names_resource))
            .filter_map(|t| {
                let c = scan::canonical(t.entity?, t.text);
                (c.len() >= MIN_RESOURCE).then_some(c)
            })
            .collect();
        resources.sort_unstable();
        resources.dedup();
        let (binds, bound) = match binding(&r.text, &scan::tokens(&m.text, clause), clause.start) {
            Some((binds, class)) if r.kind == Kind::Binding => (Some(binds), Some(class)),
            _ => (None, None),
        };
        facts.push(FoundFact {
            fact: Fact {
                id: id.clone(),
                text: r.text.clone(),
                role,
                // A binding names no resource the scenario could hold: it
                // is kept as the rule it is.
                kind: if r.kind == Kind::Binding && binds.is_none() {
                    Kind::StandingRule
                } else {
                    r.kind
                },
                turn,
                externalised: crate::audit::harness_restores(transcript, r),
                forwarded,
                binds,
            },
            guess: FactGuess {
                id,
                origin: Origin {
                    place: Place {
                        message,
                        field: MessageField::Text,
                        span: clause,
                    },
                    record: m.record,
                    role: m.role,
                    turn,
                },
                form: r.form,
                cue: r.cue,
                confidence: r.confidence,
                occurrences: 1 + r.restated.len(),
                rule: index,
                authority: r.authority,
            },
            message,
            resources,
            bound,
        });
    }
    facts
}

/// What a binding rule binds: the resource is the first identifier,
/// ticket or path it names ("the ticket is OPS-1412, not OPS-1421"); the
/// phrase is what it was quoted as ("when I say \"the blue pool\" I mean
/// np-blue-c5") or else the words before the resource ("the ticket is").
/// `tokens` are the clause's, spans relative to the message, whose text
/// starts at `offset`.
pub(super) fn binding(
    text: &str,
    tokens: &[Token<'_>],
    offset: usize,
) -> Option<(Binds, EntityKind)> {
    let resource = tokens
        .iter()
        .find(|t| t.entity.is_some_and(names_resource))?;
    let kind = resource.entity?;
    let before = text.get(..resource.span.start.checked_sub(offset)?)?;
    let quoted = before
        .split(['"', '\u{201C}', '\u{201D}'])
        .nth(1)
        .filter(|q| !q.trim().is_empty());
    let mut phrase = quoted.unwrap_or(before).trim();
    while let Some((head, last)) = phrase.rsplit_once(' ')
        && matches!(
            last.to_ascii_lowercase().as_str(),
            "is" | "are" | "means" | "mean" | "i" | "=" | ":" | "->"
        )
    {
        phrase = head.trim_end();
    }
    let binds = Binds {
        phrase: if phrase.is_empty() { text } else { phrase }.to_string(),
        resource: scan::canonical(kind, resource.text),
    };
    Some((binds, kind))
}

/// The resources the scenario's bindings name, one per binding resource,
/// its class the kind of name it is (identifier, ticket, path), mentioned
/// at the turn of each binding that names it.
pub(super) fn binding_resources(facts: &[FoundFact]) -> Vec<Resource> {
    let mut out: Vec<Resource> = Vec::new();
    for f in facts {
        let (Some(binds), Some(class)) = (&f.fact.binds, f.bound) else {
            continue;
        };
        match out.iter_mut().find(|r| r.id == binds.resource) {
            Some(r) => r.mentions.push(f.fact.turn),
            None => out.push(Resource {
                id: binds.resource.clone(),
                class: class.noun().to_string(),
                mentions: alloc::vec![f.fact.turn],
            }),
        }
    }
    out
}

/// Words left out of ids.
pub(super) const FILLER: &[&str] = &[
    "a", "an", "and", "are", "be", "for", "i", "in", "is", "it", "of", "on", "or", "please", "the",
    "this", "to", "we", "you",
];

/// The first content words of a rule as an id (`never-restart-payments-api`).
pub(super) fn slug(tokens: &[Token<'_>]) -> String {
    const WORDS: usize = 4;
    const BYTES: usize = 40;
    let mut out = String::new();
    let mut words = 0;
    for t in tokens {
        if words == WORDS {
            break;
        }
        let lower = t.text.to_ascii_lowercase();
        if t.entity.is_none() && FILLER.contains(&lower.as_str()) {
            continue;
        }
        let part: String = lower
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        if part.is_empty() {
            continue;
        }
        if !out.is_empty() && out.len() + 1 + part.len() > BYTES {
            break;
        }
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(part.get(..BYTES).unwrap_or(&part));
        words += 1;
    }
    if out.is_empty() {
        out.push_str("fact");
    }
    out
}
