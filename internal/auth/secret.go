package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
)

// secretHash is the key of every map that holds secrets: a lookup then
// only ever compares hashes, never the secret itself.
type secretHash [sha256.Size]byte

func hashSecret(secret string) secretHash {
	return sha256.Sum256([]byte(secret))
}

// randomHex returns n bytes from crypto/rand, hex encoded.
func randomHex(n int) string {
	b := make([]byte, n)
	// crypto/rand.Read never returns an error: it crashes the program
	// instead, so a secret is never made from a short read.
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// sameSecret compares two secrets in constant time.
func sameSecret(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
