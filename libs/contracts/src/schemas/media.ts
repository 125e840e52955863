import Joi from 'joi';

export interface MediaQuery {
  channel_account_id: string;
}

/** `GET /api/v1/media/{id}`: the tenant's channel account whose token reads the media item. */
export const mediaQuerySchema = Joi.object<MediaQuery>({
  channel_account_id: Joi.string().required(),
});

/** `POST /api/v1/media`'s fields beside the `file` part (sent before it: the file streams to the upstream). */
export const mediaUploadFieldsSchema = Joi.object<MediaQuery>({
  channel_account_id: Joi.string().required(),
});

/** The uploaded file's id, for `{id}` media in sends and template header components. */
export interface MediaUploaded {
  media_id: string;
}
