//! Files the server writes hold secrets (the SQLite database with password hashes and token
//! hashes, its -wal and -shm companions, the JWT key, the development outbox whose e-mails carry
//! live reset links): they are created readable by their owner only (0600, folders 0700),
//! whatever the umask, and existing ones are narrowed at start.

use std::{io, path::Path};

/// Creates `dir` and its missing parents, owner-only.
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Opens (creating it when missing) a file for writing, owner-only.
fn private_options() -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

/// Writes `content` to `path` (replacing it), owner-only.
pub fn write_private(path: &Path, content: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut f = private_options().truncate(true).open(path)?;
    restrict(path)?;
    f.write_all(content)?;
    f.sync_all()
}

/// Creates an empty file when `path` does not exist, owner-only; leaves an existing one as is.
pub fn touch_private(path: &Path) -> io::Result<()> {
    private_options().open(path).map(drop)
}

/// Narrows an existing file to owner-only; a missing file is not an error.
pub fn restrict(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        match std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            other => other?,
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// The SQLite file and its companions (`-wal`, `-shm`, `-journal`), narrowed to owner-only.
/// SQLite creates the companions with the permissions of the database file.
pub fn restrict_sqlite(db_path: &Path) -> io::Result<()> {
    restrict(db_path)?;
    for suffix in ["-wal", "-shm", "-journal"] {
        let mut p = db_path.as_os_str().to_owned();
        p.push(suffix);
        restrict(Path::new(&p))?;
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).map(|m| m.permissions().mode() & 0o777).unwrap_or(0)
    }

    #[test]
    fn files_and_folders_are_owner_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sub = dir.path().join("a/b");
        create_private_dir(&sub).expect("dir");
        assert_eq!(mode(&sub), 0o700);
        let f = sub.join("secret");
        write_private(&f, b"x").expect("write");
        assert_eq!(mode(&f), 0o600);
        let db = sub.join("x.db");
        std::fs::write(&db, b"").expect("plain write");
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        restrict_sqlite(&db).expect("restrict");
        assert_eq!(mode(&db), 0o600);
    }
}
