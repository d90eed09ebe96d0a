// The dashboard's words, from strings.ts, for its browser modules (browser/), which cannot import them:
// the page (dashboard-page.ts) passes them as data.
import type { Counted, DashboardMessages } from './browser/delivery-view.ts';
import { type CountKey, type StringKey, t } from '../site/strings.ts';

/** The words browser/ shows, as the page's data-messages. */
export function dashboardMessages(): DashboardMessages {
  return {
    signInFirst: t('dashboard.signIn.first'),
    checking: t('dashboard.signIn.checking'),
    signedIn: t('dashboard.signIn.done'),
    noStorage: t('dashboard.signIn.noStorage'),
    signedOut: t('dashboard.signOut.done'),
    signedOutRefused: t('dashboard.signOut.refused'),
    unreachable: t('dashboard.api.unreachable'),
    notJson: t('dashboard.api.notJson'),
    unexplained: t('dashboard.api.unexplained'),
    refused: t('dashboard.api.refused'),
    secretShown: t('dashboard.secret.shown'),
    copied: t('dashboard.secret.copied'),
    copyRefused: t('dashboard.secret.copyRefused'),
    secretHidden: t('dashboard.secret.hiddenNow'),
    rotated: t('dashboard.rotate.done'),
    sending: t('dashboard.test.sending'),
    testQueued: t('dashboard.test.queued'),
    testAccepted: t('dashboard.test.accepted'),
    testNotAccepted: t('dashboard.test.notAccepted'),
    upToDate: t('dashboard.log.upToDate'),
    logNone: t('dashboard.log.none'),
    logNoneForHandle: t('dashboard.log.noneForHandle'),
    logCount: countForms('dashboard.log.count'),
    logCountForHandle: countForms('dashboard.log.countForHandle'),
    tool: t('dashboard.delivery.tool'),
    callbackUrl: t('dashboard.delivery.callbackUrl'),
    recorded: t('dashboard.delivery.recorded'),
    resend: t('dashboard.delivery.resend'),
    resent: t('dashboard.delivery.resent'),
    attempts: countForms('dashboard.delivery.attempts'),
    delivered: t('dashboard.state.delivered'),
    givenUp: countForms('dashboard.state.givenUp'),
    awaiting: t('dashboard.state.awaiting'),
    awaitingUntil: t('dashboard.state.awaitingUntil'),
    time: t('dashboard.time'),
    attemptTitle: t('dashboard.attempt.title'),
    attemptSummary: t('dashboard.attempt.summary'),
    duration: t('dashboard.attempt.duration'),
    unfinished: t('dashboard.attempt.unfinished'),
    when: t('dashboard.attempt.when'),
    deliveryId: t('dashboard.attempt.deliveryId'),
    answered: t('dashboard.attempt.answered'),
    durationLabel: t('dashboard.attempt.durationLabel'),
    retryAfter: t('dashboard.attempt.retryAfter'),
    excerpt: t('dashboard.attempt.excerpt'),
    nothingBack: t('dashboard.attempt.nothingBack'),
    sent: t('dashboard.attempt.sent'),
    headersOf: t('dashboard.attempt.headers'),
    header: t('dashboard.attempt.header'),
    value: t('dashboard.attempt.value'),
    body: t('dashboard.attempt.body'),
    answerStatus: t('dashboard.answer.status'),
    answerStatusWithError: t('dashboard.answer.statusWithError'),
    inFlight: t('dashboard.answer.inFlight'),
    interrupted: t('dashboard.answer.interrupted'),
    interruptedWithError: t('dashboard.answer.interruptedWithError'),
    noAnswer: t('dashboard.answer.none'),
    unknownFailure: t('dashboard.answer.unknownFailure'),
  };
}

/** A counted phrase's one and many forms, unfilled: the browser fills `{count}`. */
function countForms(key: CountKey): Counted {
  return { one: t(`${key}.one` as StringKey), many: t(`${key}.many` as StringKey) };
}
