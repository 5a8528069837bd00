"""Themes end to end: the pieces uploaded once as the application's emoji, a server's theme, a DM
starter's theme, and the Unicode pieces when an upload fails."""

from __future__ import annotations

import pytest

from discord_emulator import DiscordEmulator, Perm
from tests.support.bot import BotUnderTest
from tests.support.tables import Table, answer, board, cells, click_cell, headline, mark_shown, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

DRAWN = ("contrast", "neon", "chalk", "candy")
NAMES = sorted(f"{theme}_{mark}" for theme in DRAWN for mark in "xo")


def emoji_names(emu: DiscordEmulator) -> list[str]:
    return sorted(emoji.name for emoji in emu.world.application_emojis.by_id.values())


async def all_uploaded(emu: DiscordEmulator) -> None:
    await emu.wait_for(lambda: emoji_names(emu) == NAMES, timeout=15, description="every theme's pieces")


def managed_table(emu: DiscordEmulator) -> Table:
    table = Table.create(emu, "member")
    managers = emu.create_role(table.guild, "Admins", permissions=Perm.MANAGE_GUILD)
    table.members["owner"] = emu.create_member(table.guild, f"owner-{table.guild.id}", roles=[managers])
    return table


async def test_the_pieces_are_uploaded_once_and_a_restart_uploads_nothing(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    await all_uploaded(emu)
    uploads = emu.world.application_emojis.uploads
    assert uploads == len(NAMES)
    for emoji in emu.world.application_emojis.by_id.values():
        assert emoji.image.startswith(b"\x89PNG") and len(emoji.image) < 256 * 1024
    listed = len(emu.calls("GET", "/applications/{application_id}/emojis"))
    await bot.restart(SYNC_COMMANDS="false")
    await emu.wait_for(
        lambda: len(emu.calls("GET", "/applications/{application_id}/emojis")) > listed,
        timeout=15,
        description="the emoji listed again",
    )
    table = Table.create(emu, "alice")
    await answer(await table.slash("alice", "ttt start", level="easy"))
    assert emu.world.application_emojis.uploads == uploads, "nothing uploaded twice"


async def test_a_servers_theme_shows_its_pieces_on_its_boards(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    await all_uploaded(emu)
    table = managed_table(emu)
    refused = await private_answer(await table.slash("member", "ttt settings", theme="contrast"))
    assert "Manage Server" in refused
    done = await private_answer(await table.slash("owner", "ttt settings", theme="contrast"))
    assert "high contrast" in done
    assert "Pieces on the boards: **high contrast**." in await private_answer(
        await table.slash("owner", "ttt settings")
    )

    message = await answer(await table.slash("member", "ttt start", level="easy"))
    await click_cell(table, message, 4, "member")
    centre = cells(message)[4]
    x = emu.world.application_emojis.named("contrast_x")
    assert x is not None and (centre.emoji or {}).get("id") in (x.id, str(x.id))
    assert (centre.emoji or {}).get("name") == "contrast_x"
    assert centre.label == "b2" and mark_shown(centre.label, centre.emoji) == "X"
    assert board(message)[4] == "X" and board(message).count("O") == 1
    assert f"<:contrast_x:{x.id}> X" in message.display_text, "the text shows the same pieces"

    refused = await private_answer(await table.slash("owner", "ttt start", theme="neon"))
    assert "/ttt settings theme" in refused


async def test_in_a_dm_the_starters_theme_applies(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    await all_uploaded(emu)
    player = emu.create_user("theme-dm")
    dm = emu.dm_channel(player)
    message = await answer(await emu.slash(dm, player, "ttt start", level="easy", theme="neon"))
    assert "to move" in headline(message)
    it = await emu.click(message, cells(message)[0].custom_id or "", player)
    await answer(it)
    names = {str((button.emoji or {}).get("name")) for button in cells(message) if button.emoji}
    assert names == {"neon_x", "neon_o"}, names
    assert board(message).count("X") == 1 and board(message).count("O") == 1
    await answer(await emu.click(message, message.button(label="Resign").custom_id or "", player))
    rematch = await answer(await emu.click(message, message.button(label="Rematch").custom_id or "", player))
    assert rematch.id != message.id and "neon_x" in rematch.display_text, "the rematch keeps the pieces"


async def test_a_failed_upload_falls_back_to_unicode_and_says_so(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    await all_uploaded(emu)
    emu.world.application_emojis.by_id.clear()
    emu.fail_next("POST", "/applications/{application_id}/emojis", status=500, times=100)
    await bot.restart(SYNC_COMMANDS="false")
    await emu.wait_for(
        lambda: "it shows ❌ and ⭕" in bot.log_text(), timeout=30, description="the fallback logged"
    )
    table = managed_table(emu)
    await private_answer(await table.slash("owner", "ttt settings", theme="candy"))
    message = await answer(await table.slash("member", "ttt start", level="easy"))
    await click_cell(table, message, 4, "member")
    assert cells(message)[4].emoji == {"name": "❌"} and board(message).count("O") == 1
    emu.clear_faults()
    await bot.restart(SYNC_COMMANDS="false")
    await all_uploaded(emu)
