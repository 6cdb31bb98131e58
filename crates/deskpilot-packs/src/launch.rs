//! How a pack's app is started: the command lines its profile gives, in the order they are
//! tried.

use crate::format::Launch;

impl Launch {
    /// The command lines to try: the program the `path_env` variable names (read with
    /// `env`), then each of `programs`, each with `args`.
    pub fn command_lines(&self, env: impl Fn(&str) -> Option<String>) -> Vec<Vec<String>> {
        let from_env = self
            .path_env
            .as_deref()
            .and_then(env)
            .filter(|path| !path.is_empty());
        from_env
            .iter()
            .chain(&self.programs)
            .map(|program| {
                std::iter::once(program.clone())
                    .chain(self.args.iter().cloned())
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::format::Launch;

    /// The variable's program comes first; an empty variable is no program.
    #[test]
    fn the_variable_comes_before_the_programs() {
        let launch = Launch {
            programs: vec!["mousepad".into(), "org.xfce.mousepad".into()],
            path_env: Some("EDITOR_PATH".into()),
            args: vec!["--disable-server".into()],
        };
        let set = launch.command_lines(|_| Some("/opt/mp".into()));
        assert_eq!(set[0], ["/opt/mp", "--disable-server"]);
        assert_eq!(set.len(), 3);
        let empty = launch.command_lines(|_| Some(String::new()));
        assert_eq!(empty[0], ["mousepad", "--disable-server"]);
        assert_eq!(empty.len(), 2);
    }
}
