package commands

import "path/filepath"

// AbsPathArgs returns raw with the command's file-path arguments (PathArgs)
// made absolute against cwd, so the daemon, which runs elsewhere, reads the
// file the user meant.
func AbsPathArgs(cmd *Command, raw []string, cwd string) []string {
	if len(cmd.PathArgs) == 0 {
		return raw
	}
	out := append([]string(nil), raw...)
	pos := 0
	for i := 0; i < len(out); i++ {
		a := out[i]
		if a == "--" {
			for j := i + 1; j < len(out); j, pos = j+1, pos+1 {
				out[j] = absIfPath(cmd, pos, out[j], cwd)
			}
			break
		}
		if looksLikeFlag(a) {
			if f := cmd.flag(a); f != nil && f.Value != "" {
				i++ // skip the flag's value
			}
			continue
		}
		out[i] = absIfPath(cmd, pos, a, cwd)
		pos++
	}
	return out
}

func absIfPath(cmd *Command, pos int, a, cwd string) string {
	for _, p := range cmd.PathArgs {
		if p == pos && a != "" && !filepath.IsAbs(a) {
			return filepath.Join(cwd, a)
		}
	}
	return a
}
