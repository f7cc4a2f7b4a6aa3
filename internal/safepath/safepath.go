// Package safepath confines file arguments (eval scripts, file:// pages,
// uploads, screenshots) to directories the user expects the browser to touch:
// the workspace and the temp directory.
package safepath

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DefaultRoots are the workspace root and the system temp directories.
func DefaultRoots(workspace string) []string {
	roots := []string{workspace, os.TempDir()}
	if os.TempDir() != "/tmp" {
		roots = append(roots, "/tmp")
	}
	return roots
}

// Check resolves path (which must be absolute) through symlinks and returns it
// if it lies inside one of roots; otherwise it returns an error that names the
// allowed directories. A path that does not exist yet is judged by its
// nearest existing parent, so output files can be checked too.
func Check(path string, roots []string) (string, error) {
	if path == "" || strings.ContainsRune(path, 0) {
		return "", fmt.Errorf("empty or malformed path")
	}
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("path %q is not absolute", path)
	}
	resolved := resolveExisting(filepath.Clean(path))
	for _, r := range roots {
		rr := resolveExisting(filepath.Clean(r))
		if resolved == rr || strings.HasPrefix(resolved, strings.TrimSuffix(rr, "/")+"/") {
			return resolved, nil
		}
	}
	return "", fmt.Errorf("path %s is outside the allowed directories (%s)", path, strings.Join(roots, ", "))
}

// resolveExisting evaluates symlinks on the longest existing prefix of p.
func resolveExisting(p string) string {
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}
