//! Crash-safe file writes for keys, roots and client state.
//!
//! Content is written to a fresh temporary file beside the target, flushed to
//! disk, and only then put in place — by `rename` to replace, or by
//! `hard_link` to create without ever clobbering (it fails when the target
//! exists). A crash leaves the old file or the new one, never half of one:
//! a torn state file would silently reset rollback protection, and a torn key
//! would lose the key.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use rand::RngCore;

/// Replaces `path` with `bytes` atomically (mode 0600 on Unix when created).
pub fn replace_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let temp = write_temporary(path, bytes)?;
    std::fs::rename(&temp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}

/// Creates `path` with `bytes` atomically, failing with
/// [`io::ErrorKind::AlreadyExists`] if it exists: the first of several
/// concurrent writers wins and the others learn it.
pub fn create_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let temp = write_temporary(path, bytes)?;
    let linked = std::fs::hard_link(&temp, path);
    let _ = std::fs::remove_file(&temp);
    linked
}

/// Writes `bytes` to a new temporary file beside `target` and syncs it.
fn write_temporary(target: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
    let (temp, mut file) = temporary_file_beside(target)?;
    let written = file.write_all(bytes).and_then(|_| file.sync_all());
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    Ok(temp)
}

/// Creates a new, exclusive temporary file in `target`'s directory (mode 0600 on Unix).
fn temporary_file_beside(target: &Path) -> io::Result<(PathBuf, File)> {
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("file");
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    // A random suffix keeps concurrent writers off each other's temporary files.
    let suffix = rand::rngs::OsRng.next_u64();
    let path = dir.join(format!(".{name}.{suffix:016x}.tmp"));
    let file = options.open(&path)?;
    Ok((path, file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_refuses_to_overwrite_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("roots-1.json");
        create_atomically(&path, b"first").unwrap();

        let second = create_atomically(&path, b"second");

        assert_eq!(second.unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn replace_overwrites_with_the_new_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        replace_atomically(&path, b"old").unwrap();

        replace_atomically(&path, b"new").unwrap();

        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
