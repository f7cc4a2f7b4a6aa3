package commands

import (
	"path/filepath"
	"strings"
)

// AbsPathArgs returns raw with the command's file-path arguments (PathArgs,
// and the values of Path flags) made absolute against cwd, so the daemon,
// which runs elsewhere, reads the file the user meant.
func AbsPathArgs(cmd *Command, raw []string, cwd string) []string {
	out := append([]string(nil), raw...)
	for _, p := range pathArgs(cmd, raw) {
		out[p.index] = p.prefix + abs(out[p.index][len(p.prefix):], cwd)
	}
	return out
}

// PathArgIndexes are the indexes in raw of the command's file-path
// arguments: the PathArgs positions (where PathArgFilter agrees) and the
// values of Path flags, given as "-o path" or "-o=path".
func PathArgIndexes(cmd *Command, raw []string) []int {
	var idx []int
	for _, p := range pathArgs(cmd, raw) {
		idx = append(idx, p.index)
	}
	return idx
}

// pathRef is one path in a command line: raw[index], after prefix ("-o="
// for a flag given with its value, else "").
type pathRef struct {
	index  int
	prefix string
}

// pathArgs walks raw as Parse does and finds its paths.
func pathArgs(cmd *Command, raw []string) []pathRef {
	var refs []pathRef
	pos := 0
	flagsDone := false
	for i := 0; i < len(raw); i++ {
		a := raw[i]
		if !flagsDone && a == "--" {
			flagsDone = true
			continue
		}
		if !flagsDone && looksLikeFlag(a) {
			name, _, inline := strings.Cut(a, "=")
			f := cmd.flag(name)
			switch {
			case f == nil || f.Value == "":
			case inline:
				if f.Path {
					refs = append(refs, pathRef{i, name + "="})
				}
			case i+1 < len(raw):
				i++ // the flag's value
				if f.Path {
					refs = append(refs, pathRef{i, ""})
				}
			}
			continue
		}
		if cmd.isPathArg(pos) && (cmd.PathArgFilter == nil || cmd.PathArgFilter(a)) {
			refs = append(refs, pathRef{i, ""})
		}
		pos++
	}
	return refs
}

func (c *Command) isPathArg(pos int) bool {
	for i, p := range c.PathArgs {
		if p == pos || (c.PathArgsRepeat && i == len(c.PathArgs)-1 && pos > p) {
			return true
		}
	}
	return false
}

func abs(a, cwd string) string {
	if a == "" || filepath.IsAbs(a) {
		return a
	}
	return filepath.Join(cwd, a)
}
