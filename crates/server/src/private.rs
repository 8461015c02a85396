//! The server's files are its owner's alone: the database holds password
//! and token hashes. A data folder is 0700 and every file in it, the
//! database, its WAL and a backup, 0600, whatever the umask of the shell
//! that started the server (docs/hosting.md).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// From now on, every file and folder this process makes is its owner's
/// alone (the umask 077), SQLite's own files included.
pub fn owner_only_from_now() {
    // SAFETY: umask only sets the process's file mode mask; it cannot fail.
    unsafe {
        libc::umask(0o077);
    }
}

/// Makes folder `dir` (and its parents) if missing, and leaves it and the
/// files directly in it readable by their owner alone: the folder 0700,
/// each file 0600.
pub fn owner_only(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(())
}

/// Leaves file `file` readable by its owner alone (0600).
pub fn owner_only_file(file: &Path) -> std::io::Result<()> {
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600))
}
