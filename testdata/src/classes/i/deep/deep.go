// Package deep holds call chains longer than any plausible depth bound.
package deep

import "database/sql"

// Purge0 writes payouts at the bottom of a 40-call chain.
func Purge0(db *sql.DB, id int) {
	db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, id)
}

func Purge1(db *sql.DB, id int)  { Purge0(db, id) }
func Purge2(db *sql.DB, id int)  { Purge1(db, id) }
func Purge3(db *sql.DB, id int)  { Purge2(db, id) }
func Purge4(db *sql.DB, id int)  { Purge3(db, id) }
func Purge5(db *sql.DB, id int)  { Purge4(db, id) }
func Purge6(db *sql.DB, id int)  { Purge5(db, id) }
func Purge7(db *sql.DB, id int)  { Purge6(db, id) }
func Purge8(db *sql.DB, id int)  { Purge7(db, id) }
func Purge9(db *sql.DB, id int)  { Purge8(db, id) }
func Purge10(db *sql.DB, id int) { Purge9(db, id) }
func Purge11(db *sql.DB, id int) { Purge10(db, id) }
func Purge12(db *sql.DB, id int) { Purge11(db, id) }
func Purge13(db *sql.DB, id int) { Purge12(db, id) }
func Purge14(db *sql.DB, id int) { Purge13(db, id) }
func Purge15(db *sql.DB, id int) { Purge14(db, id) }
func Purge16(db *sql.DB, id int) { Purge15(db, id) }
func Purge17(db *sql.DB, id int) { Purge16(db, id) }
func Purge18(db *sql.DB, id int) { Purge17(db, id) }
func Purge19(db *sql.DB, id int) { Purge18(db, id) }
func Purge20(db *sql.DB, id int) { Purge19(db, id) }
func Purge21(db *sql.DB, id int) { Purge20(db, id) }
func Purge22(db *sql.DB, id int) { Purge21(db, id) }
func Purge23(db *sql.DB, id int) { Purge22(db, id) }
func Purge24(db *sql.DB, id int) { Purge23(db, id) }
func Purge25(db *sql.DB, id int) { Purge24(db, id) }
func Purge26(db *sql.DB, id int) { Purge25(db, id) }
func Purge27(db *sql.DB, id int) { Purge26(db, id) }
func Purge28(db *sql.DB, id int) { Purge27(db, id) }
func Purge29(db *sql.DB, id int) { Purge28(db, id) }
func Purge30(db *sql.DB, id int) { Purge29(db, id) }
func Purge31(db *sql.DB, id int) { Purge30(db, id) }
func Purge32(db *sql.DB, id int) { Purge31(db, id) }
func Purge33(db *sql.DB, id int) { Purge32(db, id) }
func Purge34(db *sql.DB, id int) { Purge33(db, id) }
func Purge35(db *sql.DB, id int) { Purge34(db, id) }
func Purge36(db *sql.DB, id int) { Purge35(db, id) }
func Purge37(db *sql.DB, id int) { Purge36(db, id) }
func Purge38(db *sql.DB, id int) { Purge37(db, id) }
func Purge39(db *sql.DB, id int) { Purge38(db, id) }
func Purge40(db *sql.DB, id int) { Purge39(db, id) }

// Note0 writes refund_notes at the bottom of a 40-call chain.
func Note0(db *sql.DB, id int) {
	db.Exec("DELETE FROM refund_notes WHERE tenant_id = $1 AND id = $2", 1, id)
}

func Note1(db *sql.DB, id int)  { Note0(db, id) }
func Note2(db *sql.DB, id int)  { Note1(db, id) }
func Note3(db *sql.DB, id int)  { Note2(db, id) }
func Note4(db *sql.DB, id int)  { Note3(db, id) }
func Note5(db *sql.DB, id int)  { Note4(db, id) }
func Note6(db *sql.DB, id int)  { Note5(db, id) }
func Note7(db *sql.DB, id int)  { Note6(db, id) }
func Note8(db *sql.DB, id int)  { Note7(db, id) }
func Note9(db *sql.DB, id int)  { Note8(db, id) }
func Note10(db *sql.DB, id int) { Note9(db, id) }
func Note11(db *sql.DB, id int) { Note10(db, id) }
func Note12(db *sql.DB, id int) { Note11(db, id) }
func Note13(db *sql.DB, id int) { Note12(db, id) }
func Note14(db *sql.DB, id int) { Note13(db, id) }
func Note15(db *sql.DB, id int) { Note14(db, id) }
func Note16(db *sql.DB, id int) { Note15(db, id) }
func Note17(db *sql.DB, id int) { Note16(db, id) }
func Note18(db *sql.DB, id int) { Note17(db, id) }
func Note19(db *sql.DB, id int) { Note18(db, id) }
func Note20(db *sql.DB, id int) { Note19(db, id) }
func Note21(db *sql.DB, id int) { Note20(db, id) }
func Note22(db *sql.DB, id int) { Note21(db, id) }
func Note23(db *sql.DB, id int) { Note22(db, id) }
func Note24(db *sql.DB, id int) { Note23(db, id) }
func Note25(db *sql.DB, id int) { Note24(db, id) }
func Note26(db *sql.DB, id int) { Note25(db, id) }
func Note27(db *sql.DB, id int) { Note26(db, id) }
func Note28(db *sql.DB, id int) { Note27(db, id) }
func Note29(db *sql.DB, id int) { Note28(db, id) }
func Note30(db *sql.DB, id int) { Note29(db, id) }
func Note31(db *sql.DB, id int) { Note30(db, id) }
func Note32(db *sql.DB, id int) { Note31(db, id) }
func Note33(db *sql.DB, id int) { Note32(db, id) }
func Note34(db *sql.DB, id int) { Note33(db, id) }
func Note35(db *sql.DB, id int) { Note34(db, id) }
func Note36(db *sql.DB, id int) { Note35(db, id) }
func Note37(db *sql.DB, id int) { Note36(db, id) }
func Note38(db *sql.DB, id int) { Note37(db, id) }
func Note39(db *sql.DB, id int) { Note38(db, id) }
func Note40(db *sql.DB, id int) { Note39(db, id) }
