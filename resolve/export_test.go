package resolve

import "github.com/gwlint/gwlint/resolve/manifest"

// DecodeFromTree and DecodeWithEncodingJSON are decode's two ways, for
// the differential test (decode_test.go): from the parsed tree, as Load
// decodes, and by encoding/json alone, as it did before the tree.
func DecodeFromTree(raw *manifest.Object, opts Options) (Object, *manifest.ReadError) {
	return decodeAs(raw, opts, fromTree)
}

func DecodeWithEncodingJSON(raw *manifest.Object, opts Options) (Object, *manifest.ReadError) {
	return decodeAs(raw, opts, inOnePass)
}

// SharedDefaults are the values that defaulted fields share (setShared).
func SharedDefaults() []any {
	return []any{sharedGatewayGroup, sharedCoreGroup, sharedGatewayKind, sharedServiceKind,
		sharedPathPrefix, sharedRootPath, sharedHeaderExact, sharedQueryExact, sharedWeight}
}
