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

/// The command line with `serve`'s flags readable from the environment.
pub fn with_environment(cli: Command) -> Command {
    cli.mut_subcommand("serve", |serve| {
        serve.mut_args(|arg| match arg.get_long() {
            Some(long) if long != "help" => {
                let name = env_name(long);
                arg.env(name)
            }
            _ => arg,
        })
    })
}

/// Parses the command line `args` (flags, then the environment, then a
/// `serve --config` file); a bad file is an error naming its line.
pub fn matches(cli: Command, args: Vec<OsString>) -> Result<ArgMatches, clap::Error> {
    let found = cli
        .clone()
        .try_get_matches_from(&args)
        .map_err(|e| from_environment(&cli, &args, e))?;
    let Some(("serve", serve)) = found.subcommand() else {
        return Ok(found);
    };
    let Some(file) = serve.get_one::<std::path::PathBuf>("config").cloned() else {
        return Ok(found);
    };
    let serve_command = cli.find_subcommand("serve").cloned().ok_or_else(|| {
        cli.clone()
            .error(clap::error::ErrorKind::Io, "no serve command")
    })?;
    match from_file(&serve_command, serve, &file) {
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
    match std::env::var_os(&name) {
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

/// The flags the file gives for the settings the command line and the
/// environment left unset.
fn from_file(serve: &Command, given: &ArgMatches, file: &Path) -> Result<Vec<OsString>, String> {
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
        let id = arg.get_id().as_str();
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
