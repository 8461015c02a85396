//! `serve`'s settings as operators expect them: each flag also from the
//! environment (`VW_` and the flag's name in upper case with underscores:
//! `VW_SIGNUPS_PER_HOUR=5`) and from a file (`serve --config
//! virus-wars.toml`, the flags' names as keys: `signups-per-hour = 5`);
//! a flag wins over the environment, which wins over the file.
//!
//! clap reads the flags and the environment; the file's values are given
//! to clap as flags for the settings neither set, so that each is checked
//! by the same parser as its flag. A key that is no setting, or a value its
//! flag refuses, is refused at start with the file, the line and the key.

use std::ffi::OsString;
use std::path::Path;

use clap::parser::ValueSource;
use clap::{ArgMatches, Command};

/// The environment variable that sets `serve --NAME`.
pub fn env_name(long: &str) -> String {
    format!("VW_{}", long.replace('-', "_").to_ascii_uppercase())
}

/// The commands besides `serve` that open the server's database, and the
/// settings of `serve` they read (from the environment and `--config`'s
/// file alike): the operator sets them once, for every command.
const DATABASE_COMMANDS: [&str; 2] = ["admin", "backup"];
const DATABASE_SETTINGS: [&str; 2] = ["data", "database-url"];

/// The command line with `serve`'s flags readable from the environment,
/// and the database's settings of the commands that open it.
pub fn with_environment(cli: Command) -> Command {
    let cli = cli.mut_subcommand("serve", |serve| {
        serve.mut_args(|arg| match arg.get_long() {
            Some(long) if long != "help" => {
                let name = env_name(long);
                arg.env(name)
            }
            _ => arg,
        })
    });
    DATABASE_COMMANDS.iter().fold(cli, |cli, name| {
        cli.mut_subcommand(name, |command| {
            command.mut_args(|arg| match arg.get_long().map(env_name) {
                Some(name) if DATABASE_SETTINGS.iter().any(|s| env_name(s) == name) => {
                    arg.env(name)
                }
                _ => arg,
            })
        })
    })
}

/// Prints a refusal of the command line and exits (2), as clap does, less
/// its `Usage:` lines where a setting's value was refused: the message
/// says what was wrong, and `--help` what is right.
pub fn exit(e: clap::Error) -> ! {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation | ErrorKind::ArgumentConflict
    ) {
        let said = e.render().to_string();
        let cut = ["\n\nUsage:", "\n\nFor more information"]
            .iter()
            .filter_map(|end| said.find(end))
            .min()
            .unwrap_or(said.len());
        eprintln!(
            "{}\n\nFor the settings and their values: virus-wars help serve",
            said[..cut].trim_end()
        );
        std::process::exit(2);
    }
    e.exit()
}

/// What `serve` was told: each setting in force and where it came from,
/// and the `VW_` variables of the environment that no setting reads.
pub struct Said {
    pub in_force: Vec<String>,
    pub unknown: Vec<String>,
}

impl Said {
    pub fn of(cli: &Command, matches: &ArgMatches) -> Said {
        let (Some(serve), Some(("serve", given))) =
            (cli.find_subcommand("serve"), matches.subcommand())
        else {
            return Said {
                in_force: Vec::new(),
                unknown: Vec::new(),
            };
        };
        let mut in_force = Vec::new();
        let mut known = Vec::new();
        for arg in serve.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            if ["help", "openapi"].contains(&long) {
                continue;
            }
            known.push(env_name(long));
            let id = arg.get_id().as_str();
            let Some(values) = given.get_raw(id) else {
                continue;
            };
            let text: Vec<String> = values.map(|v| masked(long, &v.to_string_lossy())).collect();
            let from = match given.value_source(id) {
                Some(ValueSource::DefaultValue) => "default",
                Some(ValueSource::EnvVariable) => "environment",
                _ => "flag or file",
            };
            in_force.push(format!("{long}={} ({from})", text.join(",")));
        }
        let unknown = std::env::vars_os()
            .filter_map(|(k, _)| k.into_string().ok())
            .filter(|k| k.starts_with("VW_") && !known.contains(k))
            .map(|k| {
                let near = known
                    .iter()
                    .min_by_key(|n| distance(n, &k))
                    .filter(|n| distance(n, &k) <= 3);
                match near {
                    Some(n) => format!("{k} is no setting of serve: did you mean {n}?"),
                    None => format!(
                        "{k} is no setting of serve (each is VW_ and a flag's name: VW_SIGNUPS_PER_HOUR)"
                    ),
                }
            })
            .collect();
        Said { in_force, unknown }
    }
}

/// A setting's value as the log may show it: a database URL's password
/// masked.
fn masked(long: &str, value: &str) -> String {
    if long != "database-url" {
        return value.to_string();
    }
    // A password given as a parameter (`?password=…`, `password=…`) too:
    // each one's value becomes `***`.
    let mut value = value.to_string();
    let mut from = 0;
    while let Some(at) = value[from..].to_ascii_lowercase().find("password=") {
        let start = from + at + "password=".len();
        let end = value[start..]
            .find(['&', ' '])
            .map_or(value.len(), |e| start + e);
        value.replace_range(start..end, "***");
        from = start + 3;
    }
    let value = value.as_str();
    match value.split_once("://") {
        Some((scheme, rest)) => match rest.split_once('@') {
            Some((who, host)) => match who.split_once(':') {
                Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
                None => value.to_string(),
            },
            None => value.to_string(),
        },
        None => value.to_string(),
    }
}

/// The edit distance of two names (for "did you mean").
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut last = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (last + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(here + 1);
            last = here;
        }
    }
    row[b.len()]
}

/// Parses the command line `args` (flags, then the environment, then a
/// `serve --config` file); a bad file is an error naming its line.
pub fn matches(cli: Command, args: Vec<OsString>) -> Result<ArgMatches, clap::Error> {
    let found = cli
        .clone()
        .try_get_matches_from(&args)
        .map_err(|e| from_environment(&cli, &args, e))?;
    let Some((name, sub)) = found.subcommand() else {
        return Ok(found);
    };
    if name != "serve" && !DATABASE_COMMANDS.contains(&name) {
        return Ok(found);
    }
    let Some(file) = sub.get_one::<std::path::PathBuf>("config").cloned() else {
        return Ok(found);
    };
    let (Some(serve_command), Some(target)) = (
        cli.find_subcommand("serve").cloned(),
        cli.find_subcommand(name).cloned(),
    ) else {
        return Err(cli
            .clone()
            .error(clap::error::ErrorKind::Io, "no serve command"));
    };
    match from_file(&serve_command, &target, sub, &file) {
        Ok(extra) if extra.is_empty() => Ok(found),
        Ok(extra) => cli.try_get_matches_from(args.into_iter().chain(extra)),
        Err(message) => Err(cli
            .clone()
            .error(clap::error::ErrorKind::ValueValidation, message)),
    }
}

/// A refused value that came from the environment, not the command line,
/// is named by its variable: the operator set `VW_SIGNUPS_PER_HOUR`, not
/// `--signups-per-hour`.
fn from_environment(cli: &Command, args: &[OsString], e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if !matches!(
        e.kind(),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation
    ) {
        return e;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return e;
    };
    let Some(long) = arg
        .strip_prefix("--")
        .and_then(|a| a.split([' ', '=']).next())
    else {
        return e;
    };
    let flag = format!("--{long}");
    let on_the_line = args.iter().any(|a| {
        let a = a.to_string_lossy();
        a == flag || a.starts_with(&format!("{flag}="))
    });
    let name = env_name(long);
    // A switch (a flag without a value) is set from the environment by
    // true or false, which clap's words do not say.
    let switch = cli.get_subcommands().any(|sub| {
        sub.get_arguments()
            .any(|a| a.get_long() == Some(long) && !a.get_action().takes_values())
    });
    match std::env::var_os(&name) {
        Some(value) if !on_the_line && switch => cli.clone().error(
            ErrorKind::ValueValidation,
            format!(
                "{name}={} (the environment): --{long} is a switch, set from the environment \
                 by true or false ({name}=true turns it on; 1, yes and on are not read)",
                value.to_string_lossy()
            ),
        ),
        Some(value) if !on_the_line => {
            let said = e.render().to_string();
            let first = said.lines().next().unwrap_or_default();
            let why = first.strip_prefix("error: ").unwrap_or(first);
            cli.clone().error(
                ErrorKind::ValueValidation,
                format!(
                    "{name}={} (the environment): {why}",
                    value.to_string_lossy()
                ),
            )
        }
        _ => e,
    }
}

/// The flags the file gives `target` (serve, or a command that opens its
/// database) for the settings the command line and the environment left
/// unset. Every key must be a setting of serve; `target` takes those it
/// has.
fn from_file(
    serve: &Command,
    target: &Command,
    given: &ArgMatches,
    file: &Path,
) -> Result<Vec<OsString>, String> {
    let shown = file.display();
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read the settings file {shown}: {e}"))?;
    let doc = toml_edit::Document::parse(text.as_str())
        .map_err(|e| format!("the settings file {shown} is not TOML: {e}"))?;
    let line_of = |span: Option<std::ops::Range<usize>>| {
        span.map_or(0, |s| {
            text[..s.start.min(text.len())].matches('\n').count() + 1
        })
    };
    let known: Vec<&str> = serve
        .get_arguments()
        .filter_map(|a| a.get_long())
        .filter(|l| !["help", "config", "openapi"].contains(l))
        .collect();
    let mut extra = Vec::new();
    for (key, item) in doc.as_table().iter() {
        let line = line_of(doc.as_table().key(key).and_then(|k| k.span()));
        let at = format!("{shown} line {line}: {key}");
        let Some(arg) = serve
            .get_arguments()
            .find(|a| a.get_long() == Some(key) && known.contains(&key))
        else {
            return Err(format!(
                "{at} is no setting of serve (the settings are its flags without --: {})",
                known.join(", ")
            ));
        };
        let flag = format!("--{key}");
        let mut words: Vec<String> = Vec::new();
        let value = item
            .as_value()
            .ok_or_else(|| format!("{at} must be a value, not a table"))?;
        let takes_values = arg.get_action().takes_values();
        match value {
            toml_edit::Value::Boolean(b) if !takes_values => {
                if *b.value() {
                    words.push(flag.clone());
                }
            }
            _ if !takes_values => return Err(format!("{at} is true or false")),
            toml_edit::Value::Array(list) => {
                // `--flag=value`, one word: a value that starts with `-`
                // (a negative number) is not read as another flag.
                for v in list.iter() {
                    let v = scalar(v).ok_or_else(|| format!("{at}: a list of texts or numbers"))?;
                    words.push(format!("{flag}={v}"));
                }
            }
            v => {
                let v = scalar(v).ok_or_else(|| format!("{at}: a text, a number or true/false"))?;
                words.push(format!("{flag}={v}"));
            }
        }
        // The flag's own parser checks the value, alone.
        if let Err(e) = serve
            .clone()
            .no_binary_name(true)
            .try_get_matches_from(&words)
        {
            let why = e.kind().as_str().unwrap_or("refused");
            let detail = e.to_string();
            let detail = detail
                .lines()
                .next()
                .unwrap_or(why)
                .trim_start_matches("error: ");
            return Err(format!("{at}: {detail}"));
        }
        let Some(own) = target
            .get_arguments()
            .find(|a| a.get_long() == Some(key) && a.get_long() != Some("config"))
        else {
            continue;
        };
        let id = own.get_id().as_str();
        let set_already = matches!(
            given.value_source(id),
            Some(ValueSource::CommandLine | ValueSource::EnvVariable)
        );
        if !set_already {
            extra.extend(words.into_iter().map(OsString::from));
        }
    }
    Ok(extra)
}

/// A TOML text, number or boolean as a flag's value.
fn scalar(v: &toml_edit::Value) -> Option<String> {
    match v {
        toml_edit::Value::String(s) => Some(s.value().clone()),
        toml_edit::Value::Integer(n) => Some(n.value().to_string()),
        toml_edit::Value::Float(f) => Some(f.value().to_string()),
        toml_edit::Value::Boolean(b) => Some(b.value().to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_database_password_is_masked() {
        assert_eq!(
            super::masked("database-url", "postgres://vw:s3cret@db:5432/vw"),
            "postgres://vw:***@db:5432/vw"
        );
        assert_eq!(
            super::masked("database-url", "postgres://vw@db/vw"),
            "postgres://vw@db/vw"
        );
        assert_eq!(super::masked("data", "a:b@c"), "a:b@c");
        assert_eq!(
            super::masked(
                "database-url",
                "postgres://vw@db/vw?password=hunter2&sslmode=require"
            ),
            "postgres://vw@db/vw?password=***&sslmode=require"
        );
        assert_eq!(
            super::masked("database-url", "host=db password=hunter2 user=vw"),
            "host=db password=*** user=vw"
        );
    }
}
