import type { CompletionEvent } from '../../../../src/lib/webhooks/index.ts';

/** The completion event of a finished design task of `organizationId`, to be delivered to `callbackUrl`. */
export function designCompleted(handle: string, organizationId: string, callbackUrl: string): CompletionEvent & { callbackUrl: string } {
  return {
    event: 'design.completed',
    handle,
    tool: 'design.generate',
    organizationId,
    callbackUrl,
    dataJson: `{"handle":"${handle}","status":"complete","done":true,"progress":1.0,"error":""}`,
  };
}
