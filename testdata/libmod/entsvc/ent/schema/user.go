package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

type User struct{ ent.Schema }

func (User) Fields() []ent.Field {
	return []ent.Field{field.Int("tenant_id"), field.String("name")}
}

func (User) Edges() []ent.Edge {
	return []ent.Edge{edge.To("groups", Group.Type)}
}

type Order struct{ ent.Schema }

func (Order) Fields() []ent.Field {
	return []ent.Field{field.Int("tenant_id"), field.Bool("paid")}
}

type Group struct{ ent.Schema }

func (Group) Fields() []ent.Field {
	return []ent.Field{field.String("name")}
}

func (Group) Edges() []ent.Edge {
	return []ent.Edge{edge.From("users", User.Type).Ref("groups")}
}
