package denylog

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

const saltFile = "device-salt"

// loadSalt returns the device salt stored in dir, creating it on first use.
// On any problem it still returns a fresh salt, plus the error: hashes then
// stay consistent until the daemon restarts.
func loadSalt(dir string) (string, error) {
	path := filepath.Join(dir, saltFile)
	salt, err := readSalt(path)
	if errors.Is(err, os.ErrNotExist) {
		salt, err = createSalt(path)
		if errors.Is(err, os.ErrExist) { // another daemon created it first
			salt, err = readSalt(path)
		}
	}
	if err != nil {
		return newSalt(), err
	}
	return salt, nil
}

func readSalt(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	salt := strings.TrimSpace(string(data))
	if raw, err := hex.DecodeString(salt); err != nil || len(raw) != 32 {
		return "", fmt.Errorf("%s is not 32 hex-encoded bytes", path)
	}
	return salt, nil
}

func createSalt(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	salt := newSalt()
	_, err = f.WriteString(salt)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path) // a half-written salt would fail every later read
		return "", err
	}
	return salt, nil
}

func newSalt() string {
	b := make([]byte, 32)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// hashValue is the first 16 hex characters of SHA-256(salt|value), or ""
// for an empty value. Equal values hash equally on one device only.
func hashValue(salt, value string) string {
	if value == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(salt + "|" + value))
	return hex.EncodeToString(sum[:8])
}
