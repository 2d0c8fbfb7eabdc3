package gorm

import "database/sql"

// Signatures copied from gorm.io/gorm.

// Session configuration.
type Session struct {
	DryRun                 bool
	SkipHooks              bool
	AllowGlobalUpdate      bool
	FullSaveAssociations   bool
	SkipDefaultTransaction bool
	NewDB                  bool
	CreateBatchSize        int
}

func (db *DB) Session(config *Session) *DB               { return db }
func (db *DB) Unscoped() *DB                             { return db }
func (db *DB) Omit(columns ...string) *DB                { return db }
func (db *DB) UpdateColumn(column string, value any) *DB { return db }
func (db *DB) FirstOrCreate(dest any, conds ...any) *DB  { return db }
func (db *DB) Association(column string) *Association    { return &Association{DB: db} }
func (db *DB) Migrator() Migrator                        { return nil }

// Association Mode contains some helper methods to handle relationship
// things easily.
type Association struct {
	DB      *DB
	Unscope bool
	Error   error
}

func (association *Association) Find(out any, conds ...any) error { return nil }
func (association *Association) Append(values ...any) error       { return nil }
func (association *Association) Replace(values ...any) error      { return nil }
func (association *Association) Delete(values ...any) error       { return nil }
func (association *Association) Clear() error                     { return nil }
func (association *Association) Count() (count int64)             { return 0 }

// Migrator is the migrator interface (a subset of its methods).
type Migrator interface {
	AutoMigrate(dst ...any) error
	CreateTable(dst ...any) error
	DropTable(dst ...any) error
	HasTable(dst any) bool
	RenameTable(oldName, newName any) error
	DropColumn(dst any, field string) error
}

func (db *DB) Row() *sql.Row { return nil }
