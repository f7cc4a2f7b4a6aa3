package commands

import "path/filepath"

// AbsPathArgs returns raw with the command's file-path arguments (PathArgs,
// and the values of Path flags) made absolute against cwd, so the daemon,
// which runs elsewhere, reads the file the user meant.
func AbsPathArgs(cmd *Command, raw []string, cwd string) []string {
	out := append([]string(nil), raw...)
	pos := 0
	flagsDone := false
	for i := 0; i < len(out); i++ {
		a := out[i]
		if !flagsDone && a == "--" {
			flagsDone = true
			continue
		}
		if !flagsDone && looksLikeFlag(a) {
			if f := cmd.flag(a); f != nil && f.Value != "" && i+1 < len(out) {
				i++ // the flag's value
				if f.Path {
					out[i] = abs(out[i], cwd)
				}
			}
			continue
		}
		if cmd.isPathArg(pos) && (cmd.PathArgFilter == nil || cmd.PathArgFilter(a)) {
			out[i] = abs(a, cwd)
		}
		pos++
	}
	return out
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
