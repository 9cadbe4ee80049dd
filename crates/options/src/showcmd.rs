//! `--showcmd`: each job written back as one command line.
//!
//! The line repeats every assignment that reached the job, in the order written: the
//! inherited global options before `--name=`, the job's own after it, as fio's `--showcmd`
//! does. Parsing the line again gives the same job (a job's own `kb_base` applies to its own
//! options only, as in the job file). Arguments are quoted for a POSIX shell where needed.

use crate::spec::JobSpec;

/// The job as one command line, starting with `program`.
pub fn command_line(program: &str, job: &JobSpec) -> String {
    let word = |s: &crate::spec::Setting| {
        quote(&match &s.raw {
            Some(raw) => format!("--{}={}", s.def.name, raw),
            None => format!("--{}", s.def.name),
        })
    };
    let mut words = vec![program.to_string()];
    words.extend(job.settings.iter().filter(|s| s.global).map(word));
    words.push(quote(&format!("--name={}", job.name)));
    words.extend(job.settings.iter().filter(|s| !s.global && s.def.name != "name").map(word));
    words.join(" ")
}

/// `word` quoted for a POSIX shell, unchanged when it needs no quoting.
pub fn quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_=.,:/+%@^".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Splits a command line as a POSIX shell would for the words `quote` writes: blanks
/// separate words; single quotes, double quotes and backslashes quote.
pub fn split(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("unterminated single quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("unterminated double quote".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("unterminated double quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_and_split_round_trip() {
        for word in ["plain", "--bs=4k", "a b", "it's", "--description=\"x ; y\"", "", "$x"] {
            assert_eq!(split(&quote(word)).unwrap(), vec![word.to_string()], "{word}");
        }
    }

    #[test]
    fn split_handles_shell_quoting() {
        assert_eq!(split(r#"a 'b c' "d\"e" f\ g"#).unwrap(), ["a", "b c", "d\"e", "f g"]);
        assert!(split("'open").is_err());
    }
}
