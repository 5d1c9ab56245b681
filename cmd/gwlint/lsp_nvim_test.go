package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// nvimConfig attaches gwlint lsp (the command $GWLINT_CMD, run in the
// environment nvim was given) to the file $GWLINT_FILE, waits for its
// diagnostics and writes them to $GWLINT_OUT, one "code line message"
// a line. vim.lsp.start came with Neovim 0.8; Debian 12 ships 0.7, where
// start_client and buf_attach_client do the same.
const nvimConfig = `
local cmd = { os.getenv('GWLINT_CMD'), 'lsp' }
local root = os.getenv('GWLINT_ROOT')
vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('GWLINT_FILE')))
if vim.lsp.start then
  vim.lsp.start({ name = 'gwlint', cmd = cmd, root_dir = root })
else
  local id = vim.lsp.start_client({ name = 'gwlint', cmd = cmd, root_dir = root })
  vim.lsp.buf_attach_client(0, id)
end
local found = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local out = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out, string.format('%s %d %s', d.code, d.lnum + 1, d.message))
end
if not found then out = { 'no diagnostics' } end
vim.fn.writefile(out, os.getenv('GWLINT_OUT'))
vim.cmd('qall!')
`

// TestLSPNeovim runs gwlint lsp in a real editor: headless Neovim opens a
// route with a misspelt backend and shows gwlint's diagnostic for it.
func TestLSPNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim not on PATH: install Neovim (Debian: apt-get install neovim) to run gwlint lsp in it")
	}
	dir := copyTree(t, filepath.Join("testdata", "lsp"))
	route := filepath.Join(dir, "route.yaml")
	text, err := os.ReadFile(route)
	if err != nil {
		t.Fatal(err)
	}
	typo := strings.Replace(string(text), "name: store-canary", "name: store-canry", 1)
	if err := os.WriteFile(route, []byte(typo), 0o644); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(t.TempDir(), "init.lua")
	if err := os.WriteFile(config, []byte(nvimConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "diagnostics")
	gwlint := clitest.Command(t, "lsp")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", config)
	cmd.Dir = dir
	cmd.Env = append(gwlint.Env, "GWLINT_CMD="+gwlint.Path, "GWLINT_ROOT="+dir, "GWLINT_FILE="+route, "GWLINT_OUT="+out)
	if output, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, output)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no diagnostics: %v", err)
	}
	line := strings.Count(typo[:strings.Index(typo, "store-canry")], "\n") + 1
	want := `backend-not-found ` + strconv.Itoa(line) + ` Service app/store-canry not found; did you mean "store-canary"?; ` +
		`its 10% share of rules[0] gets HTTP 500 (HTTPRoute app/store spec.rules[0].backendRefs[1].name)` + "\n"
	if string(got) != want {
		t.Errorf("Neovim shows:\n%s\nwant:\n%s", got, want)
	}
}
