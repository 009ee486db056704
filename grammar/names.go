package grammar

import "strconv"

// Names of the enum values, for String methods and tree dumps.

func enumName(names []string, v int, typ string) string {
	if v >= 0 && v < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(v) + ")"
}

var (
	literalKindNames     = []string{"Int", "Real", "String", "Blob", "Null", "True", "False", "CurrentTime", "CurrentDate", "CurrentTimestamp"}
	paramKindNames       = []string{"Question", "Numbered", "Dollar", "Colon", "At", "DollarName"}
	materializationNames = []string{"Default", "Materialized", "NotMaterialized"}
	sortOrderNames       = []string{"Default", "Asc", "Desc"}
	nullsOrderNames      = []string{"Default", "NullsFirst", "NullsLast"}
	frameExcludeNames    = []string{"Default", "NoOthers", "CurrentRow", "Group", "Ties"}
	boundKindNames       = []string{"UnboundedPreceding", "Preceding", "CurrentRow", "Following", "UnboundedFollowing"}
	joinKindNames        = []string{"Inner", "Left", "Right", "Full", "Cross"}
	constraintKindNames  = []string{"PrimaryKey", "NotNull", "Null", "Unique", "Check", "Default", "Collate", "References", "Generated", "Identity"}
	deferralNames        = []string{"None", "Deferrable", "DeferrableInitiallyDeferred", "DeferrableInitiallyImmediate", "NotDeferrable", "NotDeferrableInitiallyDeferred", "NotDeferrableInitiallyImmediate"}
	triggerTimeNames     = []string{"Default", "Before", "After", "InsteadOf"}
	triggerEventNames    = []string{"Insert", "Update", "Delete"}
	alterActionNames     = []string{"RenameTable", "RenameColumn", "AddColumn", "DropColumn", "ColumnType", "SetNotNull", "DropNotNull", "SetDefault", "DropDefault"}
	txModeNames          = []string{"Deferred", "Immediate", "Exclusive"}
	raiseActionNames     = []string{"Ignore", "Rollback", "Abort", "Fail"}
	frameUnitNames       = []string{"Rows", "Range", "Groups"}
)

// String returns the kind's name.
func (k LiteralKind) String() string { return enumName(literalKindNames, int(k), "LiteralKind") }

// String returns the kind's name.
func (k ParamKind) String() string { return enumName(paramKindNames, int(k), "ParamKind") }

// String returns the hint's name.
func (m Materialization) String() string {
	return enumName(materializationNames, int(m), "Materialization")
}

// String returns the order's name.
func (o SortOrder) String() string { return enumName(sortOrderNames, int(o), "SortOrder") }

// String returns the placement's name.
func (o NullsOrder) String() string { return enumName(nullsOrderNames, int(o), "NullsOrder") }

// String returns the exclusion's name.
func (e FrameExclude) String() string { return enumName(frameExcludeNames, int(e), "FrameExclude") }

// String returns the boundary's name.
func (k BoundKind) String() string { return enumName(boundKindNames, int(k), "BoundKind") }

// String returns the unit's name.
func (u FrameUnit) String() string { return enumName(frameUnitNames, int(u), "FrameUnit") }

// String returns the kind's name.
func (k JoinKind) String() string { return enumName(joinKindNames, int(k), "JoinKind") }

// String returns the kind's name.
func (k ConstraintKind) String() string {
	return enumName(constraintKindNames, int(k), "ConstraintKind")
}

// String returns the clause's name.
func (d Deferral) String() string { return enumName(deferralNames, int(d), "Deferral") }

// String returns the time's name.
func (t TriggerTime) String() string { return enumName(triggerTimeNames, int(t), "TriggerTime") }

// String returns the event's name.
func (e TriggerEvent) String() string { return enumName(triggerEventNames, int(e), "TriggerEvent") }

// String returns the action's name.
func (a AlterAction) String() string { return enumName(alterActionNames, int(a), "AlterAction") }

// String returns the mode's name.
func (m TxMode) String() string { return enumName(txModeNames, int(m), "TxMode") }

// String returns the action's name.
func (a RaiseAction) String() string { return enumName(raiseActionNames, int(a), "RaiseAction") }
