package render_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve/manifest/render/rendertest"
)

// The tests render in workers: gwlint-render, built from this module.
func TestMain(m *testing.M) { rendertest.Main(m) }
