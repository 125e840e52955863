import Joi from 'joi';

export interface MediaQuery {
  channel_account_id: string;
}

/** `GET /api/v1/media/{id}`: the tenant's channel account whose token reads the media item. */
export const mediaQuerySchema = Joi.object<MediaQuery>({
  channel_account_id: Joi.string().required(),
});
