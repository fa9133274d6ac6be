//! The command blocks of a Markdown page, by the convention of
//! docs/README.md: a fenced block whose info string starts with `console`
//! holds `$ ` commands, each followed by the output it prints; `console
//! skip: REASON` shows commands that are not run (a server, an engine from
//! apt, a long run); `console shared-testdata` commands read the reference
//! data beside the repository (`../shared/testdata`). A `$ ` line in any other fenced block is a mistake:
//! it would look like a tested command without being one (except in a
//! `markdown` block, which shows a page's source, as docs/README.md does).

/// One `$ ` command and the output shown under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// 1-based line of the `$ ` in the page.
    pub line: usize,
    /// The command as a shell reads it (continuation lines kept).
    pub text: String,
    /// The lines shown after it, up to the next command or the fence.
    pub output: Vec<String>,
}

/// A `console` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// 1-based line of the opening fence.
    pub line: usize,
    /// `Some(reason)` for `console skip: REASON`.
    pub skip: Option<String>,
    /// `console shared-testdata`: the commands read `../shared/testdata`.
    pub needs_shared: bool,
    pub commands: Vec<Command>,
}

/// The page's console blocks, or the problems that break the convention
/// (each as `line N: what`).
pub fn parse(page: &str) -> Result<Vec<Block>, Vec<String>> {
    let lines: Vec<&str> = page.lines().collect();
    let mut blocks = Vec::new();
    let mut problems = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let Some((indent, fence, info)) = fence_open(lines[index]) else {
            index += 1;
            continue;
        };
        let open = index;
        let mut body = Vec::new();
        index += 1;
        while index < lines.len() && !is_fence_close(lines[index], &fence) {
            body.push((index + 1, strip_indent(lines[index], indent)));
            index += 1;
        }
        if index == lines.len() {
            problems.push(format!("line {}: a fence that is never closed", open + 1));
        }
        index += 1;
        let language = info.split([' ', ',', '\t']).next().unwrap_or("");
        if language == "console" {
            match console_block(open + 1, info, &body) {
                Ok(block) => blocks.push(block),
                Err(problem) => problems.push(problem),
            }
        } else if language != "markdown" {
            for (line, text) in &body {
                if text.starts_with("$ ") {
                    problems.push(format!(
                        "line {line}: a `$ ` command in a ```{language} block; \
                         commands go in ```console blocks (docs/README.md)"
                    ));
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(blocks)
    } else {
        Err(problems)
    }
}

fn console_block(line: usize, info: &str, body: &[(usize, &str)]) -> Result<Block, String> {
    let marks = info["console".len()..]
        .trim_start_matches([',', ' '])
        .trim();
    let (skip, needs_shared) = if marks.is_empty() {
        (None, false)
    } else if marks == "shared-testdata" {
        (None, true)
    } else if let Some(reason) = marks.strip_prefix("skip:") {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(format!("line {line}: `console skip:` needs a reason"));
        }
        (Some(reason.to_string()), false)
    } else {
        return Err(format!(
            "line {line}: unknown console mark {marks:?} (`skip: REASON` or `shared-testdata`)"
        ));
    };
    let mut commands: Vec<Command> = Vec::new();
    let mut rows = body.iter().peekable();
    while let Some(&(row, text)) = rows.next() {
        if let Some(first) = text.strip_prefix("$ ") {
            let mut command = first.to_string();
            while command.ends_with('\\') {
                let Some(&(_, next)) = rows.next() else { break };
                command.push('\n');
                command.push_str(next);
            }
            commands.push(Command {
                line: row,
                text: command,
                output: Vec::new(),
            });
        } else if let Some(last) = commands.last_mut() {
            last.output.push(text.to_string());
        } else if !text.trim().is_empty() {
            return Err(format!(
                "line {row}: output before the block's first `$ ` command"
            ));
        }
    }
    if commands.is_empty() {
        return Err(format!(
            "line {line}: a console block without a `$ ` command"
        ));
    }
    for command in &mut commands {
        while command.output.last().is_some_and(|l| l.trim().is_empty()) {
            command.output.pop();
        }
    }
    Ok(Block {
        line,
        skip,
        needs_shared,
        commands,
    })
}

/// An opening fence: its indent, the fence itself (``` or longer, or ~~~)
/// and the info string.
fn fence_open(line: &str) -> Option<(usize, String, &str)> {
    let trimmed = line.trim_start();
    let indent = line.len() - trimmed.len();
    let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = trimmed.chars().take_while(|c| *c == marker).count();
    (length >= 3).then(|| {
        (
            indent,
            marker.to_string().repeat(length),
            trimmed[length..].trim(),
        )
    })
}

fn is_fence_close(line: &str, fence: &str) -> bool {
    let trimmed = line.trim();
    trimmed.starts_with(fence) && trimmed.chars().all(|c| fence.starts_with(c))
}

/// A block inside a list item is indented as the item; its lines lose that
/// indent (and no more).
fn strip_indent(line: &str, indent: usize) -> &str {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    &line[spaces.min(indent)..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_outputs_continuations_and_skips() {
        let page = "text\n\n```console\n$ xiangqi a \\\n    --b\none\n\n$ xiangqi c\n```\n\n\
                    ```console skip: needs a server\n$ xiangqi serve\n```\n";
        let blocks = parse(page).unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].line, 3);
        assert_eq!(blocks[0].skip, None);
        assert_eq!(
            blocks[0].commands,
            vec![
                Command {
                    line: 4,
                    text: "xiangqi a \\\n    --b".into(),
                    output: vec!["one".into()]
                },
                Command {
                    line: 8,
                    text: "xiangqi c".into(),
                    output: vec![]
                },
            ]
        );
        assert_eq!(blocks[1].skip.as_deref(), Some("needs a server"));
        assert!(!blocks[0].needs_shared);
        let shared = parse("```console shared-testdata\n$ ls ../shared/testdata\n```\n").unwrap();
        assert!(shared[0].needs_shared && shared[0].skip.is_none());
        let problems = parse("```console sometimes\n$ x\n```\n").unwrap_err();
        assert!(problems[0].contains("unknown console mark"), "{problems:?}");
    }

    #[test]
    fn prompts_outside_console_blocks_and_bad_marks_are_problems() {
        let problems = parse("```sh\n$ xiangqi perft\n```\n").unwrap_err();
        assert!(
            problems[0].starts_with("line 2: a `$ ` command in a ```sh block"),
            "{problems:?}"
        );
        let problems = parse("```console skip:\n$ x\n```\n").unwrap_err();
        assert!(problems[0].contains("needs a reason"), "{problems:?}");
        let problems = parse("```console\nno command\n```\n").unwrap_err();
        assert!(problems[0].contains("output before"), "{problems:?}");
        assert_eq!(
            parse("````markdown\n```console\n$ x\n```\n````\n"),
            Ok(vec![])
        );
        let problems = parse("```console\n$ x\n").unwrap_err();
        assert!(problems[0].contains("never closed"), "{problems:?}");
    }

    #[test]
    fn indented_blocks_lose_their_indent() {
        let blocks = parse("- item\n\n  ```console\n  $ xiangqi x\n    two\n  ```\n").unwrap();
        assert_eq!(blocks[0].commands[0].text, "xiangqi x");
        assert_eq!(blocks[0].commands[0].output, vec!["  two".to_string()]);
    }
}
