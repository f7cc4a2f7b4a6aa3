package commands

import (
	"os"
	"path/filepath"

	"github.com/browsehq/browse/internal/browser"
	"github.com/browsehq/browse/internal/safepath"
)

// The files commands read and write: every path lies inside the safe
// directories (the workspace and the temp directory), checked before any
// work is done.

// maxPayloadBytes caps a --from-file JSON payload (pdf options are small).
const maxPayloadBytes = 10 << 20

// checkOutputPath resolves a path to write (relative paths are the
// workspace's; the CLI already makes its own absolute) and checks it.
func checkOutputPath(c *Call, p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(c.Daemon.Workspace(), p)
	}
	checked, err := safepath.Check(p, c.Daemon.SafeRoots())
	if err != nil {
		return "", Errorf("Write under the workspace or the temp directory.", "Refusing to write %s: %v.", p, err)
	}
	return checked, nil
}

// outputPath is the file a command writes: the given path, or name in the
// temp directory.
func outputPath(c *Call, path, name string) (string, error) {
	if path == "" {
		path = filepath.Join(os.TempDir(), name)
	}
	checked, err := checkOutputPath(c, path)
	if err != nil {
		return "", err
	}
	if info, err := os.Stat(checked); err == nil && info.IsDir() {
		return "", Errorf("Give a file name, not a directory.", "%s is a directory.", path)
	}
	return checked, nil
}

// writeOutput writes a file the user asked for, creating its directory. It
// writes a temporary file beside it and renames it into place: a reader
// never sees half a file, and a symlink planted at the path is replaced
// rather than followed out of the safe directories.
func writeOutput(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Errorf("Check the directory.", "Cannot create %s: %v.", dir, err)
	}
	return writeAtomic(path, data, 0o644)
}

// writeAtomic writes data to a temp file in path's directory, sets its mode
// and renames it into place.
func writeAtomic(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".browse-partial-*") // created 0600
	if err != nil {
		return Errorf("Check the directory's permissions.", "Cannot write in %s: %v.", dir, err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), mode)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return Errorf("Check the path and its permissions.", "Cannot write %s: %v.", path, err)
	}
	return nil
}

// readCheckedFile reads a file argument: inside the safe directories, a
// regular file (a FIFO would block the read past any deadline), and not
// over limit bytes (checked before reading); limitHint says what to do
// about a file over it.
func readCheckedFile(c *Call, path string, limit int64, limitHint string) ([]byte, error) {
	checked, err := safepath.Check(path, c.Daemon.SafeRoots())
	if err != nil {
		return nil, Errorf("Put the file under the workspace or the temp directory.", "Refusing to read %s: %v.", path, err)
	}
	info, err := os.Stat(checked)
	if err != nil {
		return nil, Errorf("Check the path.", "Cannot read %s: %v.", path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, Errorf("Give a regular file.", "%s is not a regular file.", path)
	}
	if info.Size() > limit {
		return nil, Errorf(limitHint, "%s is %s, over the %s limit.", path, browser.HumanBytes(info.Size()), browser.HumanBytes(limit))
	}
	data, err := os.ReadFile(checked)
	if err != nil {
		return nil, Errorf("Check the path.", "Cannot read %s: %v.", path, err)
	}
	return data, nil
}
