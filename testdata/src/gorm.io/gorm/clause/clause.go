// Package clause is a stub of gorm.io/gorm/clause: the constant a
// Select names every association with.
package clause

// Associations selects every association of the model.
const Associations = "~~~as~~~"
