//! Rules in scripts written without spaces (Chinese, Japanese, Korean):
//! their cue words, the words that hold a cue's characters without its
//! meaning, and the classifier of such a clause.

use super::*;

/// Chinese words that hold a cue's characters without its meaning ("用户"
/// is a user, not a use; "可以" in "所以" is nothing).
pub(super) const CJK_NOT: &[&str] = &[
    "用户",
    "作用",
    "费用",
    "应用",
    "调用",
    "适用",
    "信用",
    "通用",
    "有用",
    "没用",
    "可用",
    "常用",
    "专用",
    "用量",
    "用于",
    "所以",
    "以上",
    "以下",
    "以及",
    "以后",
    "以前",
    "可以看",
    "难以",
    "只是",
    "不只",
    "只要",
    "首先",
    "先生",
    "原先",
    "事先",
    "先进",
    "领先",
    "要求",
    "主要是",
    "需要的",
    "重要",
    "要点",
    "不要紧",
    "以来",
    "别人",
    "区别",
    "类别",
    "级别",
    "分别",
    "特别",
    "识别",
    "个别",
    "不是很",
    "是不是",
    "不能用",
    "我用",
    "已用",
    "优先级",
];

/// Chinese cues of how or where the work is done: a rule even inside a
/// task ("彻底更新…在源文件上做修改").
pub(super) const CJK_METHOD: &[&str] = &[
    "基于",
    "按照",
    "参考",
    "根据",
    "用",
    "使用",
    "采用",
    "在源文件",
    "写入",
    "输出到",
    "放到",
    "放在",
    "保存到",
    "中文",
    "基础上",
];

/// Openers of a one-off task in Chinese.
pub(super) const CJK_TASK_VERBS: &[&str] = &[
    "修复",
    "实现",
    "添加",
    "增加",
    "创建",
    "写",
    "生成",
    "检查",
    "查看",
    "对比",
    "比较",
    "列出",
    "设计",
    "删除",
    "更新",
    "继续",
    "执行",
    "完成",
    "优化",
    "读",
    "阅读",
    "深度阅读",
    "深度对比",
    "分析",
    "测试",
    "部署",
    "提交",
    "推送",
    "运行",
    "修改",
    "整理",
    "输出",
    "review",
    "看",
    "帮",
    "全面",
    "彻底",
    "重新",
    "你生成",
];

/// A clause in a script written without spaces.
pub(super) fn classify_unspaced(
    clause: &str,
    typed: Typed,
    pasted: bool,
) -> Option<(RuleForm, &'static str)> {
    let bare: alloc::string::String = clause
        .chars()
        .filter(|c| {
            !c.is_whitespace()
                && !matches!(c, '，' | '。' | '！' | '？' | '、' | '.' | ',' | '!' | '?')
        })
        .collect();
    if bare.is_empty() || CJK_ACKNOWLEDGEMENTS.contains(&bare.as_str()) {
        return None;
    }
    if typed == Typed::Answers || answered(clause) || option_choice(clause) {
        return Some((RuleForm::Obligation, super::super::ANSWER_CUE));
    }
    if clause.ends_with('？') || clause.ends_with('?') || clause.contains('吗') {
        return None;
    }
    if bare.chars().count() < 3 {
        return None;
    }
    // A lead-in ("注意要根据最新目标：") introduces the rule; a role ("你要
    // 作为一个顶级的系统架构师") frames the task.
    let lead_in = clause.trim_end().ends_with(['：', ':']);
    let role = [
        "你要作为",
        "你作为",
        "作为一个",
        "作为一名",
        "你是一个",
        "你是一名",
    ]
    .iter()
    .any(|r| bare.starts_with(r));
    if (lead_in || role) && !typed_strong_cjk(clause) {
        return None;
    }
    let task_opener = CJK_TASK_VERBS.iter().any(|v| bare.starts_with(v));
    for &(cue, form, strength) in CJK_CUES {
        let Some(at) = clause.find(cue) else { continue };
        // A cue inside a word that does not mean it.
        if CJK_NOT.iter().any(|n| {
            n.contains(cue) && {
                let lead = n.find(cue).unwrap_or(0);
                at >= lead && clause.get(at - lead..).is_some_and(|s| s.starts_with(n))
            }
        }) {
            continue;
        }
        let method = CJK_METHOD.contains(&cue);
        match strength {
            // "Check the runbook before touching nodes": an order before a
            // recurring act holds even after a task's verb.
            Strength::Strong
                if pasted || !task_opener || is_constraint(form) || cue == "before *ing" =>
            {
                return Some((form, cue));
            }
            Strength::Weak if !pasted && (!task_opener || method) => return Some((form, cue)),
            _ => {}
        }
    }
    // Latin words in a mixed clause ("用 uv, not pip").
    let latin: alloc::string::String = clause
        .chars()
        .map(|c| if is_unspaced(c) { ' ' } else { c })
        .collect();
    if latin.split_whitespace().count() >= 3 {
        return classify(&latin, typed, pasted)
            .filter(|(_, cue)| *cue != "an instruction that holds");
    }
    None
}

/// Whether a clause of a script written without spaces holds a strong
/// cue of typed text.
pub(super) fn typed_strong_cjk(clause: &str) -> bool {
    CJK_CUES
        .iter()
        .any(|(cue, _, strength)| *strength == Strength::Strong && clause.contains(cue))
}

/// The strong cue (or an ordering's) of a clause in a script written
/// without spaces, in text that only instructs: "严禁硬编码凭证", "先阅读
/// 文档，然后提问"; a cue inside a word that does not mean it is none.
pub(crate) fn unspaced_cue(clause: &str) -> Option<(RuleForm, &'static str)> {
    let lead_in = clause.trim_end_matches(['*', ' ']).ends_with(['：', ':']);
    if !clause.chars().any(is_unspaced) || lead_in {
        return None;
    }
    CJK_CUES
        .iter()
        .filter(|(_, form, strength)| *strength == Strength::Strong || *form == RuleForm::Ordering)
        .find(|(cue, _, _)| {
            clause.match_indices(cue).any(|(at, _)| {
                !CJK_NOT.iter().any(|n| {
                    n.contains(cue) && {
                        let lead = n.find(cue).unwrap_or(0);
                        at >= lead && clause.get(at - lead..).is_some_and(|s| s.starts_with(n))
                    }
                })
            })
        })
        .map(|&(cue, form, _)| (form, cue))
}
