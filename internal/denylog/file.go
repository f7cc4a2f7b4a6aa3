package denylog

import (
	"fmt"
	"os"
)

// generations is how many rotated files (attempts.jsonl.1 … .5) are kept.
const generations = 5

// logFile is attempts.jsonl, opened on first use and rotated by size.
type logFile struct {
	path string
	f    *os.File
	size int64
}

// append writes p, rotating first if p would take the file past maxBytes.
func (lf *logFile) append(p []byte, maxBytes int64) error {
	if lf.f == nil {
		if err := lf.open(); err != nil {
			return err
		}
	}
	if lf.size > 0 && lf.size+int64(len(p)) > maxBytes {
		lf.close()
		if err := rotate(lf.path); err != nil {
			return err
		}
		if err := lf.open(); err != nil {
			return err
		}
	}
	n, err := lf.f.Write(p)
	lf.size += int64(n)
	return err
}

func (lf *logFile) open() error {
	f, err := os.OpenFile(lf.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	lf.f, lf.size = f, info.Size()
	return nil
}

func (lf *logFile) close() {
	if lf.f != nil {
		lf.f.Close()
		lf.f = nil
	}
}

// rotate shifts path.4→.5 … .1→.2 and path→.1, discarding the oldest.
func rotate(path string) error {
	name := func(i int) string { return fmt.Sprintf("%s.%d", path, i) }
	if err := os.Remove(name(generations)); err != nil && !os.IsNotExist(err) {
		return err
	}
	for i := generations - 1; i >= 1; i-- {
		if err := os.Rename(name(i), name(i+1)); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return os.Rename(path, name(1))
}
