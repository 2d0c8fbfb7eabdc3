// Package gorm is a stub of gorm.io/gorm for fixtures.
package gorm

import "context"

type DB struct {
	Error        error
	RowsAffected int64
	Statement    *Statement
}

// Statement is the statement a builder is assembling.
type Statement struct {
	Table string
	Vars  []any
}

func (db *DB) Model(value any) *DB                                  { return db }
func (db *DB) Table(name string, args ...any) *DB                   { return db }
func (db *DB) Where(query any, args ...any) *DB                     { return db }
func (db *DB) Or(query any, args ...any) *DB                        { return db }
func (db *DB) Not(query any, args ...any) *DB                       { return db }
func (db *DB) Scopes(funcs ...func(*DB) *DB) *DB                    { return db }
func (db *DB) WithContext(ctx context.Context) *DB                  { return db }
func (db *DB) Select(query any, args ...any) *DB                    { return db }
func (db *DB) Order(value any) *DB                                  { return db }
func (db *DB) Limit(limit int) *DB                                  { return db }
func (db *DB) Create(value any) *DB                                 { return db }
func (db *DB) Save(value any) *DB                                   { return db }
func (db *DB) Update(column string, value any) *DB                  { return db }
func (db *DB) Updates(values any) *DB                               { return db }
func (db *DB) Delete(value any, conds ...any) *DB                   { return db }
func (db *DB) Find(dest any, conds ...any) *DB                      { return db }
func (db *DB) First(dest any, conds ...any) *DB                     { return db }
func (db *DB) Exec(sql string, values ...any) *DB                   { return db }
func (db *DB) Raw(sql string, values ...any) *DB                    { return db }
func (db *DB) Scan(dest any) *DB                                    { return db }
func (db *DB) Begin() *DB                                           { return db }
func (db *DB) Commit() *DB                                          { return db }
func (db *DB) Rollback() *DB                                        { return db }
func (db *DB) Transaction(fc func(tx *DB) error, opts ...any) error { return fc(db) }
