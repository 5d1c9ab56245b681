package resolve

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Certificate is what resolve keeps of a TLS Secret's leaf certificate: its
// public facts, never the key.
type Certificate struct {
	NotBefore, NotAfter time.Time
	// DNSNames are the certificate's DNS subject alternative names.
	DNSNames []string
}

// ValidityProblem says why the certificate is not valid at now (expired,
// or not yet valid); "" when it is.
func (c *Certificate) ValidityProblem(now time.Time) string {
	switch {
	case now.After(c.NotAfter):
		return "expired on " + c.NotAfter.UTC().Format(time.RFC3339)
	case now.Before(c.NotBefore):
		return "not valid before " + c.NotBefore.UTC().Format(time.RFC3339)
	}
	return ""
}

// Covers reports whether a TLS client connecting with the listener hostname
// host (possibly a wildcard) accepts the certificate: a SAN equal to it, or
// a wildcard SAN "*.d" for a host one label below d (RFC 6125 6.4.3, as
// crypto/x509 checks it). The subject's common name is not consulted;
// clients have ignored it for years.
func (c *Certificate) Covers(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, san := range c.DNSNames {
		san = strings.ToLower(strings.TrimSuffix(san, "."))
		if san == host {
			return true
		}
		if suffix, ok := strings.CutPrefix(san, "*."); ok && !strings.HasPrefix(host, "*.") {
			if label, rest, found := strings.Cut(host, "."); found && label != "" && rest == suffix {
				return true
			}
		}
	}
	return false
}

// SANs lists the DNS names for a message: "a.example.com, *.example.com",
// or "none".
func (c *Certificate) SANs() string {
	if len(c.DNSNames) == 0 {
		return "none"
	}
	return strings.Join(c.DNSNames, ", ")
}

// checkCertificate validates the tls.crt and tls.key of a Secret the way a
// controller must before serving it: "A ... certificateRef is considered
// invalid when ... the data within that resource is malformed" — which
// includes a key that is not the certificate's, since no handshake can
// succeed with it. data holds base64 values, stringData plain ones. It
// returns the leaf's facts and "" when the pair is usable, and (nil, "")
// when the Secret is not a TLS Secret.
func checkCertificate(typ string, data, stringData map[string]json.RawMessage) (*Certificate, string) {
	if typ != "kubernetes.io/tls" && data["tls.crt"] == nil && stringData["tls.crt"] == nil {
		return nil, ""
	}
	crt, problem := keyValue("tls.crt", stringData, data)
	if problem != "" {
		return nil, problem
	}
	key, problem := keyValue("tls.key", stringData, data)
	if problem != "" {
		return nil, problem
	}
	block, _ := pem.Decode(crt)
	if block == nil || block.Type != "CERTIFICATE" {
		return nil, "tls.crt holds no PEM certificate"
	}
	leaf, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, fmt.Sprintf("tls.crt is not a valid certificate: %v", err)
	}
	if block, _ := pem.Decode(key); block == nil {
		return nil, "tls.key holds no PEM private key"
	}
	if _, err := tls.X509KeyPair(crt, key); err != nil {
		return nil, "tls.key does not go with tls.crt: " + strings.TrimPrefix(err.Error(), "tls: ")
	}
	return &Certificate{NotBefore: leaf.NotBefore, NotAfter: leaf.NotAfter, DNSNames: leaf.DNSNames}, ""
}

// ReferenceSecretReader reads, as the inputs load, the Secrets of a type of
// its own that point at certificates served elsewhere (a reference, not a
// certificate and key): asked of every implementation for each Secret.
type ReferenceSecretReader interface {
	Implementation
	// ReferenceSecretProblem reports whether typ is one of its reference
	// types, and why a Secret of it with values cannot be used ("" when it
	// can).
	ReferenceSecretProblem(typ string, values SecretValues) (problem string, reads bool)
}

// SecretValues are a Secret's values as written: plain ones (stringData)
// and base64 ones (data).
type SecretValues struct {
	plain, b64 map[string]json.RawMessage
}

// Value returns the value of key, decoded, or why it cannot be read.
func (v SecretValues) Value(key string) ([]byte, string) { return keyValue(key, v.plain, v.b64) }

// readReferenceSecret asks the implementations whether the Secret is a
// reference of theirs, and why it cannot be used.
func (s *Secret) readReferenceSecret(impls []Implementation, values SecretValues) {
	for _, impl := range impls {
		if r, ok := impl.(ReferenceSecretReader); ok {
			if problem, reads := r.ReferenceSecretProblem(s.Type, values); reads {
				s.reference, s.ReferenceProblem = true, problem
				return
			}
		}
	}
}

// checkCABundle validates the ca.crt of a ConfigMap or Secret: "a PEM-encoded
// TLS CA certificate bundle", so at least one PEM block, and every block a
// certificate that parses. plain holds plain values (ConfigMap data, Secret
// stringData), b64 base64 ones (ConfigMap binaryData, Secret data).
// inContent says the problem lies in the bundle's content, not in a missing
// key.
func checkCABundle(plain, b64 map[string]json.RawMessage) (problem string, inContent bool) {
	return checkCAKey("ca.crt", plain, b64)
}

// checkCABundleAnyKey validates the bundle an implementation that reads
// any key takes (CAReading.AnyKey): ca.crt, else tls.crt, else
// the only key there is.
func checkCABundleAnyKey(plain, b64 map[string]json.RawMessage) (problem string, inContent bool) {
	key := "ca.crt"
	switch keys := dataKeys(plain, b64); {
	case slices.Contains(keys, "ca.crt"):
	case slices.Contains(keys, "tls.crt"):
		key = "tls.crt"
	case len(keys) == 1:
		key = keys[0]
	default:
		return "it has no ca.crt, no tls.crt and not a single key", false
	}
	return checkCAKey(key, plain, b64)
}

func checkCAKey(key string, plain, b64 map[string]json.RawMessage) (problem string, inContent bool) {
	bundle, problem := keyValue(key, plain, b64)
	if problem != "" {
		return problem, false
	}
	n := 0
	for rest := bundle; ; n++ {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			return fmt.Sprintf("%s holds a PEM %s block, not a certificate", key, block.Type), true
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			return fmt.Sprintf("%s holds a certificate that does not parse: %v", key, err), true
		}
	}
	if n == 0 {
		return key + " holds no PEM certificate", true
	}
	return "", false
}

// keyValue is the value of key: from plain when there, else base64-decoded
// from b64.
func keyValue(key string, plain, b64 map[string]json.RawMessage) ([]byte, string) {
	var s string
	if raw, ok := plain[key]; ok {
		if json.Unmarshal(raw, &s) != nil {
			return nil, key + " is not a string"
		}
		return []byte(s), ""
	}
	raw, ok := b64[key]
	if !ok {
		return nil, "it has no " + key
	}
	if json.Unmarshal(raw, &s) != nil {
		return nil, key + " is not a string"
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, key + " is not valid base64"
	}
	return b, ""
}
