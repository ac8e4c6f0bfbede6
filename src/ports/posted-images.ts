/** An image of a posted result, fetched again. */
export interface PostedImage {
  bytes: Buffer;
  filename: string;
}

/** A posted result's images, fetched again, and their room in the memory budget (given back once they are posted). */
export interface FetchedImages {
  images: PostedImage[];
  /** Gives their room back; safe to call more than once. */
  release: () => void;
}

/** The images a message the bot posted carries now (over Discord: the message fetched again, its attachments downloaded). */
export interface PostedImages {
  /** Undefined when the message is gone or out of the bot's reach. */
  fetch(place: { channelId: string; messageId: string }): Promise<FetchedImages | undefined>;
}
