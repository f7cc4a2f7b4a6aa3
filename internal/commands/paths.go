package commands

import "path/filepath"

// AbsPathArgs returns raw with the command's file-path arguments (PathArgs,
// and the values of Path flags) made absolute against cwd, so the daemon,
// which runs elsewhere, reads the file the user meant.
func AbsPathArgs(cmd *Command, raw []string, cwd string) []string {
	out := append([]string(nil), raw...)
	for _, i := range PathArgIndexes(cmd, raw) {
		out[i] = abs(out[i], cwd)
	}
	return out
}

// PathArgIndexes are the indexes in raw of the command's file-path
// arguments: the PathArgs positions (where PathArgFilter agrees) and the
// values of Path flags.
func PathArgIndexes(cmd *Command, raw []string) []int {
	var idx []int
	pos := 0
	flagsDone := false
	for i := 0; i < len(raw); i++ {
		a := raw[i]
		if !flagsDone && a == "--" {
			flagsDone = true
			continue
		}
		if !flagsDone && looksLikeFlag(a) {
			if f := cmd.flag(a); f != nil && f.Value != "" && i+1 < len(raw) {
				i++ // the flag's value
				if f.Path {
					idx = append(idx, i)
				}
			}
			continue
		}
		if cmd.isPathArg(pos) && (cmd.PathArgFilter == nil || cmd.PathArgFilter(a)) {
			idx = append(idx, i)
		}
		pos++
	}
	return idx
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
