package cli

import (
	"os"
	"path/filepath"
)

// ReplaceFile writes data to the file name, with permissions perm: into a
// new temporary file in name's directory, then renamed over name. The
// rename replaces a symbolic link named name, never the file it points
// to, so a link planted in a repository (a baseline file pointing at
// ~/.bashrc) cannot turn the write into one elsewhere; and nobody reads a
// half-written file. The temporary file is removed if the write fails, and
// by a signal that ends the process meanwhile (RemovedOnSignal).
func ReplaceFile(name string, data []byte, perm os.FileMode) error {
	var f *os.File
	tmp, done, err := RemovedOnSignal(func() (string, error) {
		var err error
		if f, err = os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp"); err != nil {
			return "", err
		}
		return f.Name(), nil
	})
	if err != nil {
		return err
	}
	defer done()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, perm)
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}
