/** How a job ended: posted, refused (the request, the quota, the queue or the model said no), failed, or cancelled. */
export type JobOutcome = 'delivered' | 'refused' | 'failed' | 'cancelled';
