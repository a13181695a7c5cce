"""Each game's revision (one more at every stored change, undo included) and the time
of its last change; and a chat per game."""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("revision", sa.Integer, nullable=False, server_default="0"))
        games.add_column(sa.Column("updated", sa.Float, nullable=True))
    op.create_table(
        "chat",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("side", sa.String(40), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat")
    with op.batch_alter_table("games") as games:
        games.drop_column("updated")
        games.drop_column("revision")
