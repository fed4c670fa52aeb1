package models

import (
	"embed"
	"fmt"
	"os"
	"path"

	"colony/contract"
)

// Opening books (contract.Book): models/<game>/book.txt, computed offline by cmd/book and
// embedded; `agent -book embedded` plays from it.
//
//go:embed */book.txt
var bookFiles embed.FS

// LoadBook reads the book at file, or game's embedded one when file is "embedded", and
// checks it is for info's game and encoder version; every error names the file.
func LoadBook(info contract.Info, file string) (*contract.Book, error) {
	var data []byte
	var err error
	name := file
	if file == "embedded" {
		name = "embedded " + path.Join(info.Name, "book.txt")
		data, err = bookFiles.ReadFile(path.Join(info.Name, "book.txt"))
		if err != nil {
			return nil, fmt.Errorf("models: no opening book embedded for %s", info.Name)
		}
	} else if data, err = os.ReadFile(file); err != nil {
		return nil, fmt.Errorf("models: opening book %s: %w", file, err)
	}
	b, err := contract.ReadBook(data, info)
	if err != nil {
		return nil, fmt.Errorf("models: opening book %s: %w", name, err)
	}
	return b, nil
}
