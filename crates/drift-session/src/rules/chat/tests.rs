//! The chat finder's unit tests.

use super::*;
use alloc::vec;

fn rules(text: &str) -> Vec<&str> {
    find(text, Typed::Chat)
        .iter()
        .map(|r| r.span.of(text))
        .collect()
}

#[test]
fn what_users_type_as_rules() {
    for rule in [
        "use the gdb without python",
        "put it in the file we already have",
        "we don't touch upstream code",
        "speed matters most, only sync the delta",
        "only print function, ref_cycle, opt_cycle",
        "no default port",
        "always read config.toml",
        "record every step",
        "write the plan into driver_ROADMAP.md to track the progress",
        "use /local/nick/qemu/build/qemu-system-riscv64",
        "Be thorough.",
        "don't implement now",
        "风格颜色方面不要改动",
        "主要修改claude v1.",
        "智能体系统用 github.com/vercel 来实现",
        "ask me if the schema is unclear",
        "有问题问我",
        "one build of the whole tree is the simplest way",
        "we want the lowest latency on the hot path",
        "I need to reach the best cycle count",
        "read the datasheet\nfocus on the vector unit",
        "run the suites in parallel?   - no",
        "是否保留旧接口？ - 不需要",
        "autosave drafts (as today)   - yes",
        "결과에 이모지를 사용하지 마세요",
        "반드시 테스트를 먼저 실행해",
        "nhớ viết comment bằng tiếng việt",
        "đừng chạy script trên máy chính",
    ] {
        assert_eq!(rules(rule).len(), 1, "{rule:?}: {:?}", rules(rule));
    }
}

#[test]
fn what_users_type_that_is_no_rule() {
    for talk in [
        "go ahead",
        "continue",
        "继续",
        "yes",
        "commit these changes",
        "push it",
        "why all 0?",
        "I don't know.",
        "fix the awk error",
        "review the plan again with max effort",
        "what's the input value and output value?",
        "so verification pass?",
        "全部执行",
        "深度对比这两个文档",
        "it doesn't work",
        "no, that's wrong",
        "I want to see the most recent log",
        "what is the best way to do this?",
        "why is it slow? check the logs",
        "the parser - a small one",
        "계속해",
        "고마워, 잘 됐어",
        "cảm ơn",
        "tiếp tục đi",
    ] {
        assert!(rules(talk).is_empty(), "{talk:?}: {:?}", rules(talk));
    }
}

#[test]
fn a_brief_s_steps_are_the_task_and_its_manner_a_rule() {
    let brief = "Search the repo for the config loader.\n\n1. Check if there is a `config/` folder\n2. Grep for \"load_config\" across all .py files\n3. Read the full README.md\n   - D:\\work\\app\\settings.toml\n   - `docs/setup.md` (if present)\n\nReport under 300 words.";
    let found: Vec<&str> = find(brief, Typed::Brief)
        .iter()
        .map(|r| r.span.of(brief))
        .collect();
    assert_eq!(
        found,
        ["Read the full README.md", "Report under 300 words."]
    );
}

#[test]
fn options_picked_and_questions_answered_in_the_line() {
    let text = "- B. 标准版：只展示核心结果\n  - C. 在第三步才要求登录；  - A. 先展示摘要\n是否保留现有的登录页？你决定，按最新设计来";
    let found = rules(text);
    assert!(found.contains(&"B. 标准版：只展示核心结果"), "{found:?}");
    assert!(
        found.iter().any(|r| r.starts_with("C. 在第三步")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|r| r.starts_with("是否保留现有的登录页？你决定")),
        "{found:?}"
    );
    let answers = "Deploy target: staging first? yes\nnext the cache size is fixed";
    assert_eq!(rules(answers), ["Deploy target: staging first? yes"]);
}

#[test]
fn material_handed_over_is_not_the_user_s() {
    let text = "What do you think of the following review comments?\nThe API must stay versioned.\nNever expose the admin port.\nUse one queue per tenant.";
    assert!(rules(text).is_empty(), "{:?}", rules(text));
    let own = "My comments below:\n- never expose the admin port\n- use one queue per tenant\n- keep the API versioned";
    assert_eq!(rules(own).len(), 3, "{:?}", rules(own));
}

#[test]
fn a_plan_s_conventions_are_rules_and_its_steps_are_not() {
    let plan = "Implement the following plan:\n\n# Plan: Move the docs site\n\n## Steps\n1. Copy the pages to `site/`\n2. Update the links\n\n## Conventions\n- Page names in kebab-case\n- Images under `site/img/`\n\n## Verification\n- All links resolve\n\nComments go above the code they describe, as requested.";
    assert_eq!(
        rules(plan),
        [
            "Page names in kebab-case",
            "Images under `site/img/`",
            "Comments go above the code they describe, as requested."
        ]
    );
}

#[test]
fn another_agent_s_report_pasted_is_not_the_user_s() {
    let text = "next round\n\nThe retry helper is never called: api.ts (line 60), api.ts (line 103).\nThe cache should be keyed by tenant (cache.ts (line 12)).\nUse a shared client for all calls.\n\nkeep the old endpoint";
    assert_eq!(rules(text), ["keep the old endpoint"]);
    let plan = "Implement the following plan:\n\n# Plan\n\nThe gateway must not drop frames during the switch.\nNever edit the generated bindings.";
    assert_eq!(rules(plan), ["Never edit the generated bindings."]);
}

#[test]
fn a_list_defined_a_gerund_instruction_and_a_format_for_each() {
    assert_eq!(
        rules("Release channels: stable, beta, nightly"),
        ["Release channels: stable, beta, nightly"]
    );
    assert_eq!(
        rules("Thus, logging every run to runs.md"),
        ["Thus, logging every run to runs.md"]
    );
    assert_eq!(
        rules("Each entry has a title, a date and an owner."),
        ["Each entry has a title, a date and an owner."]
    );
    assert_eq!(
        rules("1. order_events, 每个订单的状态变化"),
        ["order_events, 每个订单的状态变化"]
    );
    assert_eq!(
        rules("time the loop with bench/timer.c to measure latency"),
        ["time the loop with bench/timer.c to measure latency"]
    );
    assert!(rules("你要作为一个资深的架构师，通读整个仓库").is_empty());
    assert!(rules("注意要根据以下目标：").is_empty());
    assert!(rules("我用 pytest 跑了一遍").is_empty());
    let brief = "Targets: `a.md`, `b.md`, `c.md`";
    assert!(find(brief, Typed::Brief).is_empty());
}

#[test]
fn notes_typed_into_a_pasted_diagram_are_the_user_s() {
    let text = "这是流程图：\n  ┌──────────────┐\n  │ 第一步 输入邮箱        - 默认填入上次的邮箱   │\n  │ 第二步 发送验证码      - 这里对吗？        │\n  │ 第三步 完成注册                          │\n  └──────────────┘";
    assert_eq!(rules(text), ["默认填入上次的邮箱"]);
}

#[test]
fn stressed_lines_negations_and_exclusions_in_a_brief() {
    let brief = "Audit the config loaders.\n\n**Read these files in full**\n- `a.py`\n- `b.py`\n\nEXCLUDE the vendored copies. This is a READ-ONLY task.\n\nDo not speculate; cite the line.";
    let found: Vec<&str> = find(brief, Typed::Brief)
        .iter()
        .map(|r| r.span.of(brief))
        .collect();
    assert_eq!(
        found,
        [
            "Read these files in full",
            "EXCLUDE the vendored copies.",
            "This is a READ-ONLY task.",
            "Do not speculate;",
            "cite the line."
        ]
    );
    let brief = "Look into the release notes.\n\n1. `CHANGES.md` — read this file fully\n2. `docs/` — list what is there";
    let found: Vec<&str> = find(brief, Typed::Brief)
        .iter()
        .map(|r| r.span.of(brief))
        .collect();
    assert_eq!(found, ["read this file fully"]);
}

#[test]
fn a_message_holds_several_rules() {
    let text = "no default port ! remove it. also, always read config.toml; never hardcode paths";
    assert_eq!(
        rules(text),
        vec![
            "no default port !",
            "also, always read config.toml;",
            "never hardcode paths"
        ]
    );
}
