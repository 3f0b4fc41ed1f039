// A table's page: an entry as it was entered, in one line and in the reader's language, before
// the server has scored it (the outbox's "Waiting to send" list). Worded as the history words
// the same entry once recorded (web/table_history.py), from the request body alone: who won,
// from whom, at what value (tai, or han and fu, a limit, yakuman, or the whole hand), who
// declared riichi, a draw's tenpai players.
import { t } from "./i18n.js";

function names(list) {
  return (list ?? []).join(t("table.ev.list_sep"));
}

/** A points game's winner's value as entered: "1 han 30 fu", "mangan", "yakuman". */
function gameValue(winner) {
  if (winner.yakuman) return t("table.value.yakuman", { n: winner.yakuman });
  if (winner.limit) return t(`table.limit.${winner.limit}`);
  if (winner.fu) return t("table.value.han_fu", { han: winner.han ?? 0, fu: winner.fu });
  return t("table.value.han", { han: winner.han ?? 0 });
}

/** A winner entered with the whole hand, which the server scores on arrival. */
function handWin(winner, body) {
  return body.self_draw
    ? t("table.ev.hand_win_self", { winner: winner.name })
    : t("table.ev.hand_win_from", { winner: winner.name, discarder: body.from });
}

/** A counting game's winner (tai, faan or fan): agreed, or the whole hand still to score. */
function countedWin(winner, body) {
  if (winner.tai === undefined || winner.tai === null) return handWin(winner, body);
  return body.self_draw
    ? t("table.ev.win_self", { winner: winner.name, tai: winner.tai })
    : t("table.ev.win_from", { winner: winner.name, tai: winner.tai, discarder: body.from });
}

function gameWin(winner, body) {
  if (winner.hand) return handWin(winner, body);
  const fields = { winner: winner.name, value: gameValue(winner) };
  return body.self_draw
    ? t("table.ev.game_win_self", fields)
    : t("table.ev.game_win_from", { ...fields, discarder: body.from });
}

/** One line for an entry's request body (`body`), `pointsGame` for a riichi table. */
export function describeEntry(body, pointsGame) {
  let text;
  if (body.kind === "payout") {
    return t("table.ev.payout", { player: body.player, event: t(`payout.${body.event}`) });
  }
  if (body.kind === "chombo") return t("table.ev.chombo", { name: body.player });
  if (body.kind === "stop") return t(pointsGame ? "table.ev.stop" : "table.ev.table_stopped");
  if (body.kind === "draw") {
    if (!pointsGame) return t("table.ev.draw");
    if (body.abortive) text = t("table.ev.abortive");
    else if (body.tenpai?.length) text = t("table.ev.exhaustive", { names: names(body.tenpai) });
    else text = t("table.ev.exhaustive_none");
    if (body.nagashi?.length) text += ` · ${t("table.ev.nagashi", { names: names(body.nagashi) })}`;
  } else {
    const winners = body.winners ?? [
      { name: body.winner, tai: body.tai, hand: body.hand, han: body.han, fu: body.fu,
        yakuman: body.yakuman, limit: body.limit },
    ];
    text = winners
      .map((winner) => (pointsGame ? gameWin(winner, body) : countedWin(winner, body)))
      .join(t("table.ev.and"));
    if (body.liable) text += ` ${t("table.ev.liable", { name: body.liable })}`;
  }
  if (body.riichi?.length) text += ` · ${t("table.ev.riichi", { names: names(body.riichi) })}`;
  return text;
}
