// Package vetdriver runs one analyzer as a go vet tool: the protocol of
// "go vet -vettool=prog", in which the go command runs prog once per
// package with a JSON config file (*.cfg), after asking it for its
// version (-V=full) and its flags (-flags).
//
// It does what x/tools' unitchecker does, with two differences that
// matter for cost:
//
//   - Types of imported packages are read from the compiler's export
//     data (the config's PackageFile), as stock go vet does, instead of
//     from type export data written into every vetx file. A vetx file
//     holds facts only.
//   - Facts are read lazily. A package's imported facts are resolved to
//     objects only when the analysis first asks about an object of that
//     package, each fact is decoded only when asked for, and facts that
//     are passed on to importers are copied as the bytes they were read
//     as.
//
// Which facts travel is unitchecker's rule: a package's own facts, and
// the facts it imported about fields, methods and types of other
// packages (a package-level function's facts are read only from its own
// package's vetx file, which every direct importer has).
package vetdriver
