package resolve

import (
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
)

// checkCertificate validates the tls.crt and tls.key of a Secret the way a
// controller must before serving it: "A ... certificateRef is considered
// invalid when ... the data within that resource is malformed". data holds
// base64 values, stringData plain ones. It returns "" when the Secret is
// not a TLS Secret or the pair is usable.
func checkCertificate(typ string, data, stringData map[string]json.RawMessage) string {
	if typ != "kubernetes.io/tls" && data["tls.crt"] == nil && stringData["tls.crt"] == nil {
		return ""
	}
	crt, problem := secretValue("tls.crt", data, stringData)
	if problem != "" {
		return problem
	}
	key, problem := secretValue("tls.key", data, stringData)
	if problem != "" {
		return problem
	}
	block, _ := pem.Decode(crt)
	if block == nil || block.Type != "CERTIFICATE" {
		return "tls.crt holds no PEM certificate"
	}
	if _, err := x509.ParseCertificate(block.Bytes); err != nil {
		return fmt.Sprintf("tls.crt is not a valid certificate: %v", err)
	}
	if block, _ := pem.Decode(key); block == nil {
		return "tls.key holds no PEM private key"
	}
	return ""
}

func secretValue(key string, data, stringData map[string]json.RawMessage) ([]byte, string) {
	var s string
	if raw, ok := stringData[key]; ok {
		if json.Unmarshal(raw, &s) != nil {
			return nil, key + " is not a string"
		}
		return []byte(s), ""
	}
	raw, ok := data[key]
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
